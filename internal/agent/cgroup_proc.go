package agent

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Reading the kernel's tables about cgroups (/proc/self/mountinfo,
// /proc/self/cgroup) and memory (/proc/meminfo) for cgroup.go.

// cgroupMount is one cgroup hierarchy from /proc/self/mountinfo.
type cgroupMount struct {
	dir  string // where it is mounted
	root string // the hierarchy path mounted there ("/" outside containers)
}

// cgroupMounts finds the cgroup v1 hierarchy holding the memory
// controller and the cgroup v2 hierarchy, either may be nil.
func cgroupMounts(mountinfo string) (v1, v2 *cgroupMount, err error) {
	f, err := os.Open(mountinfo)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// id parent major:minor root mountpoint opts [optional…] - fstype source superopts
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		a, b := strings.Fields(pre), strings.Fields(post)
		if !ok || len(a) < 5 || len(b) < 3 {
			continue
		}
		m := &cgroupMount{dir: unescapeMount(a[4]), root: unescapeMount(a[3])}
		switch b[0] {
		case "cgroup2":
			if v2 == nil {
				v2 = m
			}
		case "cgroup":
			for _, o := range strings.Split(b[2], ",") {
				if o == "memory" && v1 == nil {
					v1 = m
				}
			}
		}
	}
	return v1, v2, sc.Err()
}

// procCgroups reads /proc/self/cgroup: controller → path ("" for v2).
func procCgroups(file string) (map[string]string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		parts := strings.SplitN(l, ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[1] == "" {
			out[""] = parts[2]
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			out[c] = parts[2]
		}
	}
	return out, nil
}

// relCgroup is a process's cgroup path relative to what is mounted.
func relCgroup(root, p string) string {
	if root != "/" {
		if rest, ok := strings.CutPrefix(p, root); ok {
			p = rest
		}
	}
	return filepath.Clean("/" + p)
}

func hasWord(file, word string) bool {
	b, err := os.ReadFile(file)
	return err == nil && strings.Contains(" "+strings.Join(strings.Fields(string(b)), " ")+" ", " "+word+" ")
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// totalMemory is the machine's memory in bytes (for agent.memory_max
// percentages); 0 when /proc/meminfo does not say.
func totalMemory() uint64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "MemTotal:"); ok {
			f := strings.Fields(v)
			if len(f) > 0 {
				kb, _ := strconv.ParseUint(f[0], 10, 64)
				return kb << 10
			}
		}
	}
	return 0
}
