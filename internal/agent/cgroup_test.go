package agent

import (
	"os"
	"path/filepath"
	"testing"
)

// Reading the kernel's tables: mountinfo (with a container's mount root
// and an escaped space) and /proc/self/cgroup in hybrid mode.
func TestCgroupTables(t *testing.T) {
	dir := t.TempDir()
	mi := filepath.Join(dir, "mountinfo")
	os.WriteFile(mi, []byte(`31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
35 31 0:32 /box /sys/fs/cgroup/mem\040ory rw,relatime shared:9 - cgroup cgroup rw,memory
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
`), 0o644)
	v1, v2, err := cgroupMounts(mi)
	if err != nil || v1 == nil || v2 == nil || v1.dir != "/sys/fs/cgroup/mem ory" || v1.root != "/box" || v2.dir != "/sys/fs/cgroup/unified" {
		t.Fatalf("mounts %+v %+v %v", v1, v2, err)
	}
	pc := filepath.Join(dir, "cgroup")
	os.WriteFile(pc, []byte("9:name=systemd:/\n4:memory,hugetlb:/box/api/7\n1:cpu:/\n0::/user.slice\n"), 0o644)
	paths, err := procCgroups(pc)
	if err != nil || paths["memory"] != "/box/api/7" || paths["hugetlb"] != "/box/api/7" || paths[""] != "/user.slice" {
		t.Fatalf("paths %v %v", paths, err)
	}
	if got := relCgroup(v1.root, paths["memory"]); got != "/api/7" {
		t.Errorf("relative cgroup %q, want /api/7", got)
	}
	if got := relCgroup("/", "/a/b"); got != "/a/b" {
		t.Errorf("relative cgroup %q", got)
	}
}
