package callfacts

import "strings"

// runOpts reads a container run's options from args[i] to the first
// word that is no option (the image, or compose's service): the bind
// mounts (-v HOST:CTR, --volume, --mount type=bind,src=…,dst=…) that map
// a container path back to the host's, and --entrypoint, the program
// the words after the image are given to (docker run --entrypoint sh
// -v /home/dev/x:/d img -c 'rm -rf /d/*' runs sh -c there). It returns
// the index of that word.
func runOpts(args []string, i int) (mounts [][2]string, entry string, end int) {
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return mounts, entry, i + 1
		}
		if !strings.HasPrefix(a, "-") {
			break
		}
		v := ""
		if k, val, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "--") {
			a, v = k, val
		} else if dockerArgOpt(a) && i+1 < len(args) {
			i++
			v = args[i]
		}
		switch a {
		case "-v", "--volume":
			if parts := strings.Split(v, ":"); len(parts) >= 2 {
				mounts = append(mounts, [2]string{parts[0], parts[1]})
			}
		case "--mount":
			var src, dst string
			for _, kv := range strings.Split(v, ",") {
				k, val, _ := strings.Cut(kv, "=")
				switch k {
				case "source", "src":
					src = val
				case "target", "dst", "destination":
					dst = val
				}
			}
			if src != "" && dst != "" {
				mounts = append(mounts, [2]string{src, dst})
			}
		case "--entrypoint":
			entry = v
		}
	}
	return mounts, entry, i
}

// withEntrypoint puts a run's --entrypoint before the words after its
// image: they are that program's arguments.
func withEntrypoint(entry string, cmd []string) []string {
	if f := strings.Fields(entry); len(f) > 0 {
		return append(f, cmd...)
	}
	return cmd
}

// mapMounts maps each word of a command run in a container through the
// run's bind mounts (hostPath).
func mapMounts(cmd []string, mounts [][2]string) []string {
	for k, a := range cmd {
		cmd[k] = hostPath(a, mounts)
	}
	return cmd
}

// shellHostPaths maps the absolute paths in shell text run in a container
// (sh -c '…'): one under a bind mount's target becomes the host path,
// any other is the container's own, marked as hostPath marks a word, so
// a delete there (rm -rf /datasets/* with nothing mounted) is not taken
// for the host's.
func shellHostPaths(text string, mounts [][2]string) string {
	var b strings.Builder
	for i := 0; i < len(text); {
		start := i == 0 || strings.IndexByte(" '\"=;&|(\t\n", text[i-1]) >= 0
		if text[i] != '/' || !start {
			b.WriteByte(text[i])
			i++
			continue
		}
		j := i
		for j < len(text) && strings.IndexByte(" '\";&|)\t\n", text[j]) < 0 {
			j++
		}
		b.WriteString(hostPath(text[i:j], mounts))
		i = j
	}
	return b.String()
}
