package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// A memory limit warden sets itself through the kernel's cgroup files,
// for machines without a systemd user instance to make a scope: cgroup v2
// (memory.max) in a subtree this user may write whose parent hands down
// the memory controller, or cgroup v1's memory controller
// (memory.limit_in_bytes). Each agent gets <base>/<task>; its launch
// script moves itself there before it execs the agent, so the agent and
// everything it starts are under the limit, and the kernel's OOM killer
// counts what it killed there (oom_kill), which is how the task's failure
// names the limit.

// cgroupAgentsDir is the directory of agents' cgroups under the place
// warden may write.
const cgroupAgentsDir = "warden-agents"

// cgroupLimit is where agents' memory cgroups are made.
type cgroupLimit struct {
	v2   bool
	base string // <…>/warden-agents
}

// findCgroupLimit finds where this process may make agents' memory
// cgroups: nil and why not.
func findCgroupLimit() (*cgroupLimit, string) {
	v1, v2, err := cgroupMounts("/proc/self/mountinfo")
	if err != nil {
		return nil, "cannot read /proc/self/mountinfo: " + err.Error()
	}
	paths, err := procCgroups("/proc/self/cgroup")
	if err != nil {
		return nil, "cannot read /proc/self/cgroup: " + err.Error()
	}
	var whys []string
	if v2 != nil && hasWord(filepath.Join(v2.dir, "cgroup.controllers"), "memory") {
		if c, why := findV2(v2, paths[""]); c != nil {
			return c, ""
		} else {
			whys = append(whys, "cgroup v2: "+why)
		}
	}
	if v1 != nil {
		if c, why := findV1(v1, paths["memory"]); c != nil {
			return c, ""
		} else {
			whys = append(whys, "cgroup v1 memory controller: "+why)
		}
	}
	if len(whys) == 0 {
		return nil, "the kernel offers no memory cgroup controller here"
	}
	return nil, strings.Join(whys, "; ")
}

// findV2 walks from this process's cgroup up to the hierarchy's root for
// a directory that hands the memory controller to its children and where
// warden may make warden-agents (which holds no process, so it may hand
// the controller on: cgroup v2's no-internal-process rule).
func findV2(m *cgroupMount, own string) (*cgroupLimit, string) {
	dir := filepath.Join(m.dir, relCgroup(m.root, own))
	if dir != m.dir {
		dir = filepath.Dir(dir) // a cgroup holding processes cannot enable controllers for children
	}
	why := "no writable cgroup with the memory controller delegated above " + filepath.Join(m.dir, relCgroup(m.root, own))
	for ; strings.HasPrefix(dir, m.dir); dir = filepath.Dir(dir) {
		if !hasWord(filepath.Join(dir, "cgroup.subtree_control"), "memory") {
			// Enabling it needs the parent to have it, and the directory to
			// hold no process: try, it is the delegation's owner's call.
			if os.WriteFile(filepath.Join(dir, "cgroup.subtree_control"), []byte("+memory"), 0) != nil {
				continue
			}
		}
		c := &cgroupLimit{v2: true, base: filepath.Join(dir, cgroupAgentsDir)}
		if err := c.probe(); err != nil {
			why = err.Error()
			continue
		}
		return c, ""
	}
	return nil, why
}

// findV1 uses warden-agents under this process's own memory cgroup
// (cgroup v1 has no rule against processes beside child cgroups).
func findV1(m *cgroupMount, own string) (*cgroupLimit, string) {
	c := &cgroupLimit{base: filepath.Join(m.dir, relCgroup(m.root, own), cgroupAgentsDir)}
	if err := c.probe(); err != nil {
		return nil, err.Error()
	}
	return c, ""
}

// probe makes and removes one agent cgroup with a limit: what Spawn will do.
func (c *cgroupLimit) probe() error {
	dir, err := c.create(fmt.Sprintf("probe-%d", os.Getpid()), 1<<30)
	if err != nil {
		return err
	}
	return removeCgroup(context.Background(), dir)
}

// limitFile is the file holding a cgroup's memory limit.
func (c *cgroupLimit) limitFile() string {
	if c.v2 {
		return "memory.max"
	}
	return "memory.limit_in_bytes"
}

// Describe says where and how, for `warden doctor`.
func (c *cgroupLimit) Describe() string {
	v := "v1"
	if c.v2 {
		v = "v2"
	}
	return fmt.Sprintf("agents run in a cgroup %s of their own under %s (%s)", v, c.base, c.limitFile())
}

// create makes the cgroup of task with a limit of max bytes and no swap
// beyond it (where the kernel accounts swap), and returns its directory.
// warden-agents is made first when missing: it exists only while agents
// do, so warden leaves no directory in a cgroup tree it does not own.
func (c *cgroupLimit) create(task string, max uint64) (string, error) {
	if err := os.Mkdir(c.base, 0o755); err == nil {
		if c.v2 {
			// warden-agents holds no process, so it may hand the memory
			// controller on to the agents' cgroups.
			_ = os.WriteFile(filepath.Join(c.base, "cgroup.subtree_control"), []byte("+memory"), 0)
		}
	} else if !errors.Is(err, os.ErrExist) {
		return "", fmt.Errorf("make %s: %w", c.base, err)
	}
	dir := filepath.Join(c.base, task)
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return "", fmt.Errorf("make the memory cgroup %s: %w", dir, err)
	}
	limit := strconv.FormatUint(max, 10)
	if err := os.WriteFile(filepath.Join(dir, c.limitFile()), []byte(limit), 0); err != nil {
		_ = removeCgroup(context.Background(), dir)
		return "", fmt.Errorf("set %s in %s: %w", c.limitFile(), dir, err)
	}
	// Without this an agent over the limit would swap instead of being
	// stopped. Absent when the kernel does not account swap.
	if c.v2 {
		_ = os.WriteFile(filepath.Join(dir, "memory.swap.max"), []byte("0"), 0)
	} else {
		_ = os.WriteFile(filepath.Join(dir, "memory.memsw.limit_in_bytes"), []byte(limit), 0)
	}
	return dir, nil
}

// cgroupOOMKills is how many processes the OOM killer killed in dir
// because of its limit (memory.events in v2, memory.oom_control in v1).
func cgroupOOMKills(dir string) int {
	for _, f := range []string{"memory.events", "memory.oom_control"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(b), "\n") {
			if n, ok := strings.CutPrefix(l, "oom_kill "); ok {
				k, _ := strconv.Atoi(strings.TrimSpace(n))
				return k
			}
		}
	}
	return 0
}

// removeCgroup kills what is left in dir (an agent's stray children) and
// removes it, waiting up to 5 s for the processes to go, then
// warden-agents when no other agent's cgroup is left in it. A dir already
// gone is fine.
func removeCgroup(ctx context.Context, dir string) error {
	if dir == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	for {
		err := os.Remove(dir)
		if err == nil || errors.Is(err, os.ErrNotExist) {
			if base := filepath.Dir(dir); filepath.Base(base) == cgroupAgentsDir {
				_ = os.Remove(base) // fails while other agents run: fine
			}
			return nil
		}
		if !errors.Is(err, syscall.EBUSY) {
			return fmt.Errorf("remove the memory cgroup %s: %w", dir, err)
		}
		if os.WriteFile(filepath.Join(dir, "cgroup.kill"), []byte("1"), 0) != nil {
			for _, pid := range cgroupPIDs(dir) {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("remove the memory cgroup %s: processes %v still in it", dir, cgroupPIDs(dir))
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func cgroupPIDs(dir string) []int {
	b, _ := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
	var out []int
	for _, f := range strings.Fields(string(b)) {
		if n, err := strconv.Atoi(f); err == nil && n > 0 {
			out = append(out, n)
		}
	}
	return out
}
