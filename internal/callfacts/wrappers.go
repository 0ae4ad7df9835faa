package callfacts

import (
	"path"
	"strings"
)

// unwrap returns the command a wrapper runs (nil if name is no wrapper),
// the wrapper's label for Cmd.Wrappers, and a shell payload (bash -c,
// eval, env -S, watch).
func unwrap(name string, args []string) (inner []string, label, payload string) {
	label = name
	skip := func(withArg string) []string { return SkipFlags(args, withArg) }
	if rs := rshellRules()[name]; rs != nil {
		// fly ssh console -C, tsh ssh, heroku run, knife ssh (rshell.txt):
		// shell code elsewhere, read as ssh's payload is
		if p, _ := remoteShellPayload(name, args); p != "" {
			return nil, "ssh", p
		}
	}
	if envRuns()[name] != nil {
		// bundle exec …, uv run …, conda run -n env …, sbatch --wrap='…'
		// (envrun.txt): the command runs here, in an environment
		if in, p := envRunInner(name, args); len(in) > 0 || p != "" {
			return in, name, p
		}
	}
	switch name {
	case "sshpass":
		// sshpass -p PW ssh host cmd: the ssh it runs
		inner = skip("pfd")
	case "sudo", "doas", "run0", "pkexec", "pfexec":
		// pfexec (illumos): the command runs with its profile's rights, as root's
		inner = skip("ugpChrtUDR|--user --group --chdir --prompt --host --close-from --role --type --other-user --command-timeout")
		for len(inner) > 1 && envAssign(inner[0]) {
			inner = inner[1:] // sudo EDITOR='tee -a' visudo: the variable is set for the command
		}
	case "nohup", "exec", "time", "builtin", "setsid", "caffeinate", "unbuffer", "torsocks", "proxychains", "proxychains4",
		"catchsegv", "strace", "ltrace", "chronic", "sg", "firejail", "systemd-run", "tini", "dumb-init", "faketime", "ts", "pv", "rlwrap", "doppler", "op", "dotenv", "with-contenv", "direnv", "daemonize",
		"flatpak-spawn", "host-spawn", "distrobox-host-exec":
		inner = skip("oeEpuMa")
		if name == "faketime" && len(inner) > 1 {
			inner = inner[1:]
		}
		if (name == "direnv" || name == "doppler" || name == "op") && len(inner) > 0 && (inner[0] == "exec" || inner[0] == "run") {
			inner = SkipFlags(inner[1:], "")
			if name == "direnv" && len(inner) > 0 {
				inner = inner[1:] // the directory
			}
		} else if name == "direnv" || name == "doppler" || name == "op" {
			inner = nil
		}
	case "java":
		// java -jar tools/bfg-1.14.0.jar …: the jar is the program (bfg)
		for i, a := range args {
			if a == "-jar" && i+1 < len(args) {
				inner = append([]string{jarProgram(args[i+1])}, args[i+2:]...)
				label = "java -jar"
				break
			}
			if !strings.HasPrefix(a, "-") {
				break // java Main: a class, not a jar
			}
		}
	case "cmd", "cmd.exe":
		// cmd /c rd /s /q …: the command after /c (or /k)
		for i, a := range args {
			if l := strings.ToLower(a); l == "/c" || l == "/k" || l == "/r" {
				inner = args[i+1:]
				if len(inner) == 1 && strings.ContainsAny(inner[0], "&|") {
					// cmd /c "certutil … && a.exe": one quoted command line, read as a shell's
					return nil, label, strings.ReplaceAll(inner[0], `\`, `\\`) // C:\Users: a separator, not an escape
				}
				break
			}
		}
	case "cmake":
		// cmake -E rm -rf x, remove_directory x: its portable file commands
		if len(args) > 1 && args[0] == "-E" {
			switch args[1] {
			case "rm", "copy", "copy_directory", "rename", "touch", "chdir", "env", "make_directory":
				inner = append([]string{map[string]string{"copy": "cp", "copy_directory": "cp", "rename": "mv", "make_directory": "mkdir"}[args[1]]}, args[2:]...)
				if inner[0] == "" {
					inner[0] = args[1]
				}
				if args[1] == "copy_directory" {
					inner = append([]string{"cp", "-r"}, args[2:]...)
				}
			case "remove_directory", "rm_directory":
				inner = append([]string{"rm", "-rf"}, args[2:]...)
			case "remove":
				inner = append([]string{"rm", "-f"}, args[2:]...)
			}
		}
	case "mvn", "mvnw", "gradle", "gradlew":
		// mvn exec:exec -Dexec.executable=rm -Dexec.args='-rf ~/x'
		exe, rest := "", ""
		for _, a := range args {
			if v, ok := strings.CutPrefix(a, "-Dexec.executable="); ok {
				exe = v
			}
			if v, ok := strings.CutPrefix(a, "-Dexec.args="); ok {
				rest = v
			}
		}
		if exe != "" {
			inner = append([]string{exe}, strings.Fields(rest)...)
		}
	case "npx", "bunx", "pnpx", "uvx":
		// npx rimraf / runs rimraf /; npx checkly@latest deploy runs
		// checkly (the version picks the release, not the program)
		inner = skip("p|--package -p --call")
		if len(inner) > 0 {
			if i := strings.LastIndexByte(inner[0], '@'); i > 0 && !strings.Contains(inner[0][i:], "/") {
				inner = append([]string{inner[0][:i]}, inner[1:]...)
			}
			if bin, ok := npmBins[inner[0]]; ok {
				inner = append([]string{bin}, inner[1:]...)
			}
		}
	case "deno":
		// deno run -A npm:rimraf@5 ~/x runs the package's program as npx does
		if len(args) > 1 && (args[0] == "run" || args[0] == "x") {
			if r := SkipFlags(args[1:], "c|--config --import-map --lock --cert --location --seed"); len(r) > 0 && strings.HasPrefix(r[0], "npm:") {
				pkg := strings.TrimPrefix(r[0], "npm:")
				if i := strings.LastIndexByte(pkg, '@'); i > 0 && !strings.Contains(pkg[i:], "/") {
					pkg = pkg[:i]
				}
				if bin, ok := npmBins[pkg]; ok {
					pkg = bin
				}
				inner = append([]string{pkg}, r[1:]...)
			}
		}
	case "pipx", "pnpm", "yarn", "bun", "npm":
		if len(args) > 1 && (args[0] == "dlx" || args[0] == "run" && name == "pipx" || args[0] == "x" || args[0] == "exec") {
			inner = SkipFlags(args[1:], "")
			if len(inner) > 0 && name != "pipx" {
				if i := strings.LastIndexByte(inner[0], '@'); i > 0 && !strings.Contains(inner[0][i:], "/") {
					inner = append([]string{inner[0][:i]}, inner[1:]...)
				}
				if bin, ok := npmBins[inner[0]]; ok {
					inner = append([]string{bin}, inner[1:]...)
				}
			}
		}
	case "runuser", "setpriv", "prlimit", "xvfb-run", "numactl", "cgexec", "fakeroot", "fakechroot", "proot", "sandbox-exec", "catatonit", "gosu", "su-exec", "chpst", "s6-setuidgid", "aws-vault", "env-cmd", "cross-env", "dotenvx":
		inner = skip("ugfsnplgaeCSrNm|--user --group --profile --server-args --cpunodebind --membind --physcpubind")
		if (name == "gosu" || name == "su-exec" || name == "s6-setuidgid" || name == "chpst" && len(inner) > 0 && !strings.HasPrefix(inner[0], "-")) && len(inner) > 1 {
			inner = inner[1:] // the user
		}
		if name == "aws-vault" && len(inner) > 1 && inner[0] == "exec" {
			inner = SkipFlags(inner[2:], "")
		}
		for len(inner) > 0 && (name == "cross-env" || name == "env-cmd" || name == "dotenvx") && strings.Contains(inner[0], "=") {
			inner = inner[1:]
		}
	case "screen":
		inner = skip("SctTpXhe") // screen -dm cmd…
	case "chrt", "taskset":
		// chrt [opts] PRIORITY cmd…, taskset [opts] MASK cmd…
		if r := skip(""); len(r) > 1 {
			inner = r[1:]
		}
	case "busybox", "toybox":
		// Multi-call binaries: busybox rm -rf / is rm -rf /.
		inner = skip("")
		label = name
	case "command":
		for _, a := range args {
			if a == "-v" || a == "-V" {
				return nil, label, ""
			}
		}
		inner = skip("")
	case "nice":
		inner = skip("n")
	case "ionice":
		inner = skip("cnp")
	case "stdbuf":
		inner = skip("ioe")
	case "chroot":
		if r := skip(""); len(r) > 1 {
			// inside, / is the new root
			root := r[0]
			inner = append([]string(nil), r[1:]...)
			for i, a := range inner {
				if i > 0 && strings.HasPrefix(a, "/") {
					inner[i] = strings.TrimSuffix(root, "/") + a
				}
			}
		}
	case "unshare":
		// -r is --map-root-user, -m -u -i -n -p -U -C -T name namespaces:
		// none takes a value, so unshare -r rm -rf x runs rm.
		inner = skip("RwSG|--root --wd --setuid --setgid --map-user --map-group --map-users --map-groups --propagation --setgroups")
	case "nsenter":
		// -t PID; -r, -w and the namespace flags take their value attached
		// (-m/proc/1/ns/mnt), never as the next word.
		inner = skip("tSG|--target --setuid --setgid")
	case "flock":
		for i, a := range args {
			if (a == "-c" || a == "--command") && i+1 < len(args) {
				return nil, "flock -c", args[i+1]
			}
		}
		if r := skip("wEs"); len(r) > 1 {
			inner = r[1:]
		}
	case "script":
		for i, a := range args {
			if (a == "-c" || a == "--command" || len(a) > 2 && a[0] == '-' && a[1] != '-' && a[len(a)-1] == 'c') && i+1 < len(args) {
				return nil, "script -c", args[i+1]
			}
			if strings.HasPrefix(a, "--command=") {
				return nil, "script -c", a[len("--command="):]
			}
		}
	case "launchctl":
		// launchctl submit -l label [-o out] -- program args: the job it runs
		if len(args) > 0 && args[0] == "submit" {
			for i, a := range args {
				if a == "--" && i+1 < len(args) {
					inner = args[i+1:]
					break
				}
			}
		}
	case "timeout":
		if r := skip("sk"); len(r) > 1 {
			inner = r[1:] // drop the duration
		}
	case "env":
		for i := 0; i < len(args); i++ {
			a := args[i]
			switch {
			case a == "-S" || a == "--split-string":
				if i+1 < len(args) {
					return nil, "env -S", strings.Join(args[i+1:], " ")
				}
			case strings.HasPrefix(a, "-S") && len(a) > 2:
				return nil, "env -S", strings.Join(append([]string{a[2:]}, args[i+1:]...), " ")
			case strings.HasPrefix(a, "--split-string="):
				return nil, "env -S", strings.Join(append([]string{a[len("--split-string="):]}, args[i+1:]...), " ")
			case a == "-u" || a == "-C" || a == "-P" || a == "--unset" || a == "--chdir":
				i++
			case strings.HasPrefix(a, "-"):
			case strings.Contains(a, "="):
			default:
				return envActsArgs(args[:i], args[i:]), label, ""
			}
		}
	case "xargs":
		// -i, -e, -l and --replace take their value only attached (-i{},
		// --replace=X): alone they consume nothing (xargs -i rm -rf)
		inner = skip(xargsWithArg)
		if len(inner) == 0 {
			inner = []string{"echo"}
		}
		label = "xargs"
	case "parallel":
		label = "parallel"
	case "eval":
		return nil, "eval", strings.Join(args, " ")
	case "watch":
		if r := skip("ndq"); len(r) > 0 {
			return nil, "watch", strings.Join(r, " ")
		}
	case "ssh":
		// ssh [options] host command…: the remote command is shell code
		// (rm -rf / there is as bad as here).
		if r := skip("ipl oFJLRDbcEemOQSWwB"); len(r) > 1 {
			if r[1] == "--" {
				r = r[1:]
			}
			if len(r) > 1 {
				return nil, "ssh", strings.Join(r[1:], " ")
			}
		}
	case "mosh", "autossh", "et", "dbclient":
		// mosh host -- command…: the remote command is shell code, as ssh's
		for i, a := range args {
			if a == "--" && i+1 < len(args) {
				return nil, "ssh", strings.Join(args[i+1:], " ")
			}
		}
	case "adb", "sdb", "hdc":
		// adb [-s SERIAL] shell command…: shell code on the device; Tizen's
		// sdb and HarmonyOS's hdc are the same bridge to a TV, a watch or
		// a phone
		for i, a := range args {
			if a == "shell" && i+1 < len(args) {
				return nil, name + " shell", androidSu(args[i+1:])
			}
		}
	case "ares-shell":
		// webOS: ares-shell -d DEVICE -r 'command': shell code on the TV
		for i, a := range args {
			if v, ok := strings.CutPrefix(a, "--run="); ok {
				return nil, "ares-shell", v
			}
			if (a == "-r" || a == "--run") && i+1 < len(args) {
				return nil, "ares-shell", args[i+1]
			}
		}
	case "wsl", "wsl.exe":
		// wsl -e cmd…, wsl -- cmd…, wsl bash -c …: a command on this machine
		// (its Windows drives are /mnt/c…)
		for i, a := range args {
			if (a == "-e" || a == "--exec" || a == "--") && i+1 < len(args) {
				return args[i+1:], "wsl", ""
			}
		}
		if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
			return args, "wsl", ""
		}
	case "gcloud", "az":
		// gcloud compute ssh VM --command=…, gcloud cloud-shell ssh --command=…,
		// az vm run-command invoke … --scripts '…': shell code on another host
		for i, a := range args {
			if v, ok := strings.CutPrefix(a, "--command="); ok && name == "gcloud" {
				return nil, "ssh", v
			}
			if (a == "--command" && name == "gcloud" || a == "--scripts" && name == "az") && i+1 < len(args) {
				return nil, "ssh", args[i+1]
			}
		}
	case "su":
		for i, a := range args {
			if (a == "-c" || a == "--command") && i+1 < len(args) {
				return nil, "su -c", args[i+1]
			}
			if strings.HasPrefix(a, "--command=") {
				return nil, "su -c", a[len("--command="):]
			}
		}
	case "docker", "podman", "nerdctl", "kubectl", "oc", "lxc", "incus", "vagrant", "multipass":
		return containerCmd(name, args)
	case "docker-compose", "podman-compose":
		// v1's own program: read as v2's docker compose … (composev1.go)
		return containerCmd(composeV1[name], append([]string{"compose"}, args...))
	case "nomad":
		// nomad alloc exec [-task T] [-i] [-t] ALLOC CMD…: CMD runs in the allocation
		if len(args) > 2 && args[0] == "alloc" && args[1] == "exec" {
			rest := args[2:]
			for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
				switch strings.TrimLeft(rest[0], "-") {
				case "task", "namespace", "address", "region", "token", "e", "escape":
					rest = rest[1:] // an option with its value
				}
				if len(rest) > 0 {
					rest = rest[1:]
				}
			}
			if len(rest) > 1 {
				return rest[1:], "nomad alloc exec", ""
			}
		}
	default:
		if IsShell(name) {
			for i := 0; i < len(args); i++ {
				a := args[i]
				if a == "--" {
					break
				}
				if shellValueOpts[a] {
					i++ // bash -o pipefail, -O expand_aliases, --rcfile F: the option's value, not the script
					continue
				}
				if len(a) >= 2 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a[1:], 'c') && i+1 < len(args) {
					if args[i+1] == "--" && i+2 < len(args) {
						i++ // bash -c -- 'script': the end of the options, then the script
					}
					var params []string
					if i+3 < len(args) {
						params = args[i+3:] // after $0: sh -c 'rm -rf "$1"' _ ~/x
					}
					return nil, name + " -c", bindParams(args[i+1], params)
				}
				if len(a) > 2 && (a[0] == '-' || a[0] == '+') && a[1] != '-' && (a[len(a)-1] == 'o' || a[len(a)-1] == 'O') {
					i++ // bash -euo pipefail: the cluster's last option takes the next word
					continue
				}
				if !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+") {
					break
				}
			}
		}
		if IsInterpreter(name) {
			label = name + " " + strings.Join(interpFlags(name)[:1], "")
			if strings.HasPrefix(name, "python") || strings.HasPrefix(name, "pypy") {
				// python -m pip uninstall …: the module runs as its program
				for i, a := range args {
					if a == "-m" && i+1 < len(args) {
						return args[i+1:], name + " -m", ""
					}
					if !strings.HasPrefix(a, "-") || a == "-c" {
						break
					}
				}
			}
		}
	}
	if len(inner) == 0 {
		inner = nil
	}
	return inner, label, payload
}

// FindExecs returns the commands of find's -exec/-execdir/-ok actions with
// {} replaced by find's starting points, so `find / -exec rm -rf {} +` is
// seen as rm -rf on /.
func FindExecs(args []string) [][]string {
	var starts []string
	for _, a := range args {
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
			break
		}
		starts = append(starts, a)
	}
	if len(starts) == 0 {
		starts = []string{"."}
	}
	// With tests that filter, {} is what matched under the starting
	// points, not the starting points themselves.
	matched := starts
	if FindFilters(args) {
		matched = nil
		name := findLiteralName(args)
		for _, s := range starts {
			if name != "" {
				// find . -maxdepth 1 -name .git -exec rm -rf {} +: what
				// matches is ./.git, a path the zones can judge
				matched = append(matched, strings.TrimSuffix(s, "/")+"/"+name)
				continue
			}
			matched = append(matched, strings.TrimSuffix(s, "/")+"/{}")
		}
	}
	var out [][]string
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-exec", "-execdir", "-ok", "-okdir":
			var cmd []string
			j := i + 1
			for ; j < len(args) && args[j] != ";" && args[j] != "+"; j++ {
				if args[j] == "{}" {
					cmd = append(cmd, matched...)
					continue
				}
				cmd = append(cmd, args[j])
			}
			if len(cmd) > 0 {
				out = append(out, cmd)
			}
			i = j
		}
	}
	return out
}

// SkipFlags drops leading options (withArg lists the short ones that take
// a value) and returns the command that follows.
// After a "|", withArg lists long options that take a value too
// ("ug|--user --group").
func SkipFlags(args []string, withArg string) []string {
	short, long, _ := strings.Cut(withArg, "|")
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return args[i+1:]
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			return args[i:]
		}
		if len(a) == 2 && strings.ContainsRune(short, rune(a[1])) || long != "" && strings.HasPrefix(a, "--") && !strings.Contains(a, "=") && strings.Contains(" "+long+" ", " "+a+" ") {
			i++
		} else if len(a) > 2 && a[1] != '-' && letters(a[1:]) && strings.ContainsRune(short, rune(a[len(a)-1])) {
			i++ // screen -dmS name cmd…: a cluster whose last flag takes the value
		}
	}
	return nil
}

// dockerArgOpt reports whether a docker/podman run or exec option takes a value.
func dockerArgOpt(k string) bool {
	switch k {
	case "-v", "--volume", "--mount", "-e", "--env", "--env-file", "-p", "--publish", "--name", "-w", "--workdir", "-u", "--user", "--entrypoint", "--network", "--net", "-h", "--hostname", "-l", "--label", "-m", "--memory", "--cpus", "--platform", "--pull", "--restart", "--device", "--add-host", "--dns", "--ulimit", "--security-opt", "--cap-add", "--cap-drop", "--tmpfs", "--log-driver", "--log-opt", "--gpus", "--shm-size", "--ipc", "--pid", "--userns", "--volumes-from", "-a", "--attach", "--stop-signal", "-c", "--container", "-n", "--namespace", "--context", "-H", "--host", "--cpu-shares", "--label-file", "--cidfile", "--runtime":
		return true
	}
	return false
}

// containerCmd unwraps docker/podman exec and run, kubectl/oc exec,
// lxc/incus/multipass exec and vagrant ssh -c: the command runs in the
// container, and for docker run a bind mount maps it back to the host
// (docker run -v /:/h alpine rm -rf /h removes the host's /).
func containerCmd(name string, args []string) (inner []string, label, payload string) {
	i := 0
	argOpt := dockerArgOpt  // compose's own options once "compose" is read (composev1.go)
	next := func() string { // the next positional, skipping options
		for ; i < len(args); i++ {
			a := args[i]
			if a == "--" {
				i++
				return ""
			}
			if !strings.HasPrefix(a, "-") {
				i++
				return a
			}
			if argOpt(a) {
				i++
			}
		}
		return ""
	}
	sub := next()
	if sub == "compose" {
		argOpt = composeArgOpt
	}
	if sub == "compose" || sub == "container" {
		sub = next()
	}
	switch {
	case name == "vagrant" && sub == "ssh":
		for j, a := range args {
			if (a == "-c" || a == "--command") && j+1 < len(args) {
				return nil, "vagrant ssh", args[j+1]
			}
			if a == "--" && j+1 < len(args) {
				// vagrant ssh [NAME] -- ARGS: ssh's own arguments, whose
				// first word that is no option starts the command there
				if r := SkipFlags(args[j+1:], "ipl oFJLRDbcEemOQSWwB"); len(r) > 0 {
					return nil, "vagrant ssh", strings.Join(r, " ")
				}
			}
		}
		return nil, name, ""
	case sub == "run" && (name == "kubectl" || name == "oc" || strings.HasPrefix(strings.Join(args, " "), "compose")),
		sub == "debug" && (name == "kubectl" || name == "oc"):
		// kubectl run … -- cmd, docker compose run SERVICE cmd: the command
		// runs in a container like exec's.
		for j := i; j < len(args); j++ {
			if args[j] == "--" {
				return clip(args[j+1:]), name + " exec", ""
			}
		}
		if name == "kubectl" || name == "oc" {
			return nil, name, ""
		}
		// compose run -v HOST:CTR --entrypoint sh SERVICE …: as docker run's
		mounts, entry, end := runOpts(args, i)
		if end >= len(args) {
			return nil, name, ""
		}
		cmd := withEntrypoint(entry, append([]string(nil), args[end+1:]...))
		if len(cmd) == 0 {
			return nil, name, ""
		}
		if len(mounts) == 0 {
			return cmd, name + " exec", ""
		}
		return mapMounts(cmd, mounts), name + " exec", ""
	case sub == "exec":
		start := i
		if next() == "" { // the container or pod
			for j := start; j < len(args); j++ {
				if args[j] == "--" {
					return clip(args[j+1:]), name + " exec", ""
				}
			}
			return nil, name, ""
		}
		// kubectl exec POD -c CTR -- cmd, lxc exec CT -- cmd: a "--" after
		// the container's options; one after the command's first word is
		// the command's own (docker exec peertube npm run x -- -u root)
		for j := i; j < len(args); j++ {
			a := args[j]
			if a == "--" {
				return clip(args[j+1:]), name + " exec", ""
			}
			if !strings.HasPrefix(a, "-") {
				break
			}
			if argOpt(a) {
				j++
			}
		}
		return clip(args[i:]), name + " exec", ""
	case sub == "run" && (name == "docker" || name == "podman" || name == "nerdctl"):
		mounts, entry, end := runOpts(args, i)
		i = end
		if i+1 >= len(args) && entry == "" || i >= len(args) {
			return nil, name, ""
		}
		cmd := append([]string(nil), args[i+1:]...)
		if entry != "" {
			cmd = withEntrypoint(entry, cmd)
		} else if p := imageCLI(args[i]); p != "" && ProgramName(cmd[0]) != p {
			cmd = append([]string{p}, cmd...) // docker run amazon/aws-cli s3 rb …: the entrypoint is aws
		} else if p := namedImageCLI(args[i], cmd[0]); p != "" {
			cmd = append([]string{p}, cmd...) // docker run corp/mes-cli orders cancel 42 (imagecli_named.go)
		}
		if len(cmd) > 2 && ProgramName(cmd[0]) == "chroot" {
			// chroot DIR inside the container: its / is DIR there
			root := strings.TrimSuffix(cmd[1], "/")
			cmd = cmd[2:]
			for k, a := range cmd {
				if k > 0 && strings.HasPrefix(a, "/") {
					cmd[k] = root + a
				}
			}
		}
		return mapMounts(cmd, mounts), name + " run", ""
	}
	return nil, name, ""
}

func clip(a []string) []string {
	if len(a) == 0 {
		return nil
	}
	return a
}

// hostPath maps a container path through bind mounts to the host path;
// other absolute paths are the container's own (marked, so they are not
// taken for the host's). Shell text (sh -c '…') has each path that
// starts a word mapped so (shellHostPaths).
func hostPath(a string, mounts [][2]string) string {
	if strings.ContainsAny(a, " \t\n") {
		return shellHostPaths(a, mounts) // sh -c '…': each path in the text
	}
	for _, m := range mounts {
		src, dst := m[0], strings.TrimSuffix(m[1], "/")
		if dst == "" {
			dst = "/"
		}
		switch {
		case a == dst || dst != "/" && strings.HasPrefix(a, dst+"/"):
			return src + strings.TrimPrefix(a, dst)
		case dst == "/" && strings.HasPrefix(a, "/"):
			return src + a
		}
	}
	if strings.HasPrefix(a, "/") {
		return "container:" + a
	}
	return a
}

// fdExecs returns the commands of fd's -x/--exec/-X/--exec-batch with the
// search path standing for {} (fd . / -x rm -rf is rm -rf over /).
func fdExecs(args []string) [][]string {
	var pos []string
	filtered := false
	var out [][]string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-x" || a == "--exec" || a == "-X" || a == "--exec-batch":
			var cmd []string
			j := i + 1
			for ; j < len(args) && args[j] != ";"; j++ {
				cmd = append(cmd, args[j])
			}
			if len(cmd) > 0 {
				out = append(out, cmd)
			}
			i = j
		case strings.HasPrefix(a, "-"):
			switch a {
			case "-e", "--extension", "-t", "--type", "-S", "--size", "--changed-within", "--changed-before", "--owner":
				filtered = filtered || !(a == "-t" || a == "--type") || i+1 < len(args) && args[i+1] != "d" && args[i+1] != "directory"
				i++
			case "-E", "-d", "--exclude", "--max-depth", "--min-depth", "--search-path", "-j", "--threads":
				i++
			}
		default:
			pos = append(pos, a)
		}
	}
	where := "."
	if len(pos) > 1 {
		where = pos[1]
	}
	// With a pattern other than "." or a filter (-e py, -t f, -g x), {}
	// is what matched under the path, not the path itself.
	if len(pos) > 0 && pos[0] != "." && pos[0] != "" && pos[0] != "^" || filtered {
		where = strings.TrimSuffix(where, "/") + "/{}"
	}
	for k, cmd := range out {
		replaced := false
		for j, a := range cmd {
			if strings.Contains(a, "{") {
				cmd[j] = where
				replaced = true
			}
		}
		if !replaced {
			out[k] = append(cmd, where)
		}
	}
	return out
}

// xargsWithArg are xargs's options that take the next argument as their
// value (SkipFlags' form); -i, -e, -l and --replace take one only attached.
const xargsWithArg = "IJLPdEsanRS|--delimiter --arg-file --max-args --max-procs --max-chars --process-slot-var --max-lines"

// fanOut is what xargs and parallel run: the command with its input (or
// parallel's ::: arguments) added or put in place of the replace string.
// Input the line does not show stands as $INPUT, an unknown value.
func (n *normalizer) fanOut(name string, args, inner []string, stdin *text) [][]string {
	repl := ""
	var items []string
	if name == "parallel" {
		repl = "{}"
		cmd := SkipFlags(args, "jSnNLdEa")
		for i, a := range cmd {
			if a == ":::" || a == "::::" || a == ":::+" {
				items = append(items, cmd[i+1:]...)
				cmd = cmd[:i]
				break
			}
		}
		inner = cmd
	} else {
		short, long, _ := strings.Cut(xargsWithArg, "|")
	opts:
		for i := 0; i < len(args); i++ {
			a := args[i]
			switch {
			case !strings.HasPrefix(a, "-") || a == "--":
				break opts
			case a == "-I" && i+1 < len(args):
				repl = args[i+1]
			case a == "-i" || a == "--replace" || a == "--replace=":
				repl = "{}" // GNU: the replace string defaults to {}
			case strings.HasPrefix(a, "-I") || strings.HasPrefix(a, "-i"):
				repl = a[2:]
			case strings.HasPrefix(a, "--replace="):
				repl = a[len("--replace="):]
			}
			if len(a) == 2 && strings.ContainsRune(short, rune(a[1])) || strings.Contains(" "+long+" ", " "+a+" ") {
				i++ // the option's value (-d '\n', --arg-file f) is no option
			}
		}
	}
	if name == "parallel" && len(inner) == 0 && len(items) > 0 {
		// parallel ::: 'rm -rf /' 'make': no command, so each argument
		// is one, run by the shell
		var out [][]string
		for _, it := range items {
			out = append(out, []string{"sh", "-c", it})
		}
		return out
	}
	if len(inner) == 0 {
		return nil
	}
	if items == nil {
		runsCode := len(inner) > 0 && (IsShell(ProgramName(inner[0])) || ProgramName(inner[0]) == "eval" || IsInterpreter(ProgramName(inner[0])))
		switch {
		case stdin != nil && stdin.known && !(stdin.names && runsCode):
			if repl != "" {
				items = strings.Split(strings.TrimRight(stdin.s, "\n"), "\n")
			} else {
				items = strings.Fields(stdin.s)
			}
			n.derive("%s gets %q from its input", name, short(stdin.s))
		default:
			items = []string{"$INPUT"}
		}
	}
	if len(items) > 16 {
		items = items[:16]
	}
	hasRepl := false
	for _, a := range inner {
		hasRepl = hasRepl || repl != "" && strings.Contains(a, repl)
	}
	if !hasRepl || name == "xargs" && repl == "" {
		return [][]string{append(append([]string(nil), inner...), items...)}
	}
	var out [][]string
	for _, it := range items {
		cmd := make([]string, len(inner))
		for j, a := range inner {
			cmd[j] = strings.ReplaceAll(a, repl, templateItem(inner[0], a, repl, it))
		}
		if name == "parallel" && len(cmd) == 1 && strings.ContainsAny(cmd[0], " ;|&") {
			cmd = []string{"sh", "-c", cmd[0]} // parallel runs a one-word command through the shell
		}
		out = append(out, cmd)
	}
	return out
}

// FindFilters reports whether find's expression has tests that select
// some files (-name, -type f, -mtime…) rather than everything.
func FindFilters(args []string) bool {
	for i, a := range args {
		switch a {
		case "-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-newer", "-size", "-mtime", "-mmin", "-user", "-group", "-perm", "-empty", "-links", "-wholename", "-lname", "-samefile", "-inum", "-atime", "-ctime", "-cmin", "-amin":
			return true
		case "-type":
			if i+1 < len(args) && args[i+1] != "d" {
				return true
			}
		}
	}
	return false
}

// findLiteralName is the one name find's tests select when it is a
// literal (-name .git, no pattern) and the other tests only limit depth
// or type: every match is then a path of that name, "" otherwise.
func findLiteralName(args []string) string {
	name := ""
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "-name":
			if i+1 >= len(args) || name != "" || strings.ContainsAny(args[i+1], "*?[]\\/$") || args[i+1] == "" {
				return ""
			}
			name = args[i+1]
			i++
		case "-maxdepth", "-type":
			i++
		case "-mindepth":
			if i+1 < len(args) && args[i+1] != "0" && args[i+1] != "1" {
				return "" // find . -mindepth 2 -name .git: nested ones only, not ./.git
			}
			i++
		case "-prune", "-print", "-print0", "-depth", "-xdev", "-mount":
			// -prune stops the descent into what matched; which names
			// match stays the same (find . -name .git -prune -exec rm -rf {} +)
		case "-exec", "-execdir", "-ok", "-okdir":
			return name
		default:
			if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
				return "" // another test: the matches are not all of that name
			}
		}
	}
	return name
}

// jarProgram names the program a jar file is (bfg-1.14.0.jar → bfg).
func jarProgram(jar string) string {
	b := strings.TrimSuffix(path.Base(jar), ".jar")
	for i := 1; i < len(b); i++ {
		if b[i] == '-' && i+1 < len(b) && b[i+1] >= '0' && b[i+1] <= '9' {
			return b[:i]
		}
	}
	return b
}

// envAssign reports whether a is a variable assignment (NAME=value).
func envAssign(a string) bool {
	k, _, ok := strings.Cut(a, "=")
	if !ok || k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		b := k[i]
		if !(b == '_' || b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' || i > 0 && b >= '0' && b <= '9') {
			return false
		}
	}
	return true
}

// shellValueOpts are the shells' options that take the next word as their
// value (set -o pipefail, shopt -s expand_aliases given on the command
// line, a start-up file): the script or -c comes after it.
var shellValueOpts = map[string]bool{"-o": true, "+o": true, "-O": true, "+O": true, "--rcfile": true, "--init-file": true}

// shellOperands are a shell's arguments after its options and their
// values: the script file and its arguments (bash -o pipefail x.sh: x.sh).
func shellOperands(args []string) []string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return args[i+1:]
		case shellValueOpts[a]:
			i++
		case len(a) > 2 && (a[0] == '-' || a[0] == '+') && a[1] != '-' && (a[len(a)-1] == 'o' || a[len(a)-1] == 'O'):
			i++
		case !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+"):
			return args[i:]
		}
	}
	return nil
}

// envActsArgs is inner with env's assignments (before it) that are its
// program's acting option added as arguments (env DRY_RUN=false
// gitlab-rake …: tools.txt acts=, read as the normalizer's envActs).
func envActsArgs(before, inner []string) []string {
	acts := tool(ProgramName(inner[0])).acts
	for _, o := range acts {
		k, _, ok := strings.Cut(o, "=")
		if !ok || strings.HasPrefix(k, "-") {
			continue
		}
		for _, a := range before {
			if strings.HasPrefix(a, k+"=") {
				inner = append(append([]string(nil), inner...), a)
			}
		}
	}
	return inner
}

// npmBins names the program an npm package installs when its name is not
// the package's (npx netlify-cli deploy runs netlify, npx @railway/cli up
// runs railway), so a command run through npx, bunx or pnpm dlx is
// judged as the CLI it is.
var npmBins = map[string]string{
	"netlify-cli": "netlify", "firebase-tools": "firebase", "@railway/cli": "railway",
	"@aws-amplify/cli": "amplify", "@azure/static-web-apps-cli": "swa", "eas-cli": "eas",
	"@sentry/cli": "sentry-cli", "@shopify/cli": "shopify", "@salesforce/cli": "sf",
	"aws-cdk": "cdk", "@sanity/cli": "sanity", "@architect/architect": "arc",
	"appwrite-cli": "appwrite", "@fastly/cli": "fastly", "@cloudflare/wrangler": "wrangler",
	"@northflank/cli": "northflank", "@zeabur/cli": "zeabur",
}

// androidSu: the shell line adb sends for its words (joined with spaces,
// as adb does). A phone's su (Magisk's, SuperSU's) runs every word after
// -c as the command (adb shell su -c 'dd if=/dev/zero of=…/userdata':
// the device's shell splits the line, su joins the words again), where a
// desktop su takes the next one only: the words after -c are quoted as
// one command when they hold no shell syntax of their own.
func androidSu(words []string) string {
	line := strings.Join(words, " ")
	if len(words) < 3 || words[0] != "su" {
		return line
	}
	for j, w := range words {
		if w != "-c" && w != "--command" {
			continue
		}
		cmd := strings.Join(words[j+1:], " ")
		if j+1 >= len(words) || strings.ContainsAny(cmd, ";|&<>`$'\"\\(){}") {
			return line
		}
		return strings.Join(words[:j+1], " ") + quoteArgs([]string{cmd})
	}
	return line
}
