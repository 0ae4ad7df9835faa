package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/testenv"
)

// requireMemoryLimit skips when the kernel has no memory controller at
// all (nothing to test), and skips — or fails under CI — when it has one
// that warden found no way to use.
func requireMemoryLimit(t *testing.T) memoryMethod {
	t.Helper()
	m := memOnce()
	if m.kind != memNone {
		return m
	}
	b, _ := os.ReadFile("/proc/cgroups")
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) == 4 && f[0] == "memory" && f[3] == "1" {
			testenv.SkipOrFail(t, "the kernel has a memory cgroup controller but warden cannot use it: "+m.why)
		}
	}
	t.Skip("no memory cgroup controller in this kernel: " + m.why)
	return m
}

// An agent that goes over agent.memory_max is killed by the kernel, and
// its task ends in error naming the limit; its cgroup is removed with it.
func TestAgentOverItsMemoryLimitIsKilled(t *testing.T) {
	mem := requireMemoryLimit(t)
	t.Logf("memory limit: %s", mem.why)
	r := newRig(t, "memhog", func(c *Config) { c.MemoryMax = "64M" })
	a := r.spawn(t, "t1")
	if mem.kind == memCgroup && a.MemoryCgroup == "" {
		t.Fatalf("the agent got no memory cgroup although %s", mem.why)
	}
	s, _ := r.untilCleaned(t, "t1", 60*time.Second)
	t.Logf("reason: %s", s.Reason)
	if s.State != "error" || !strings.Contains(s.Reason, "memory limit (agent.memory_max 64M)") {
		t.Errorf("state %s: %q, want error naming the memory limit", s.State, s.Reason)
	}
	if a.MemoryCgroup != "" {
		if _, err := os.Stat(a.MemoryCgroup); !os.IsNotExist(err) {
			t.Errorf("the agent's cgroup %s is still there: %v", a.MemoryCgroup, err)
		}
	}
}

// An agent's cgroup holds its limit while it runs, and goes with the
// agent (with whatever it left running).
func TestAgentCgroupHoldsItsLimitAndGoesWithIt(t *testing.T) {
	mem := requireMemoryLimit(t)
	if mem.kind != memCgroup {
		t.Skipf("this machine limits agents through a systemd scope (%s); the cgroup warden makes is not used here", mem.why)
	}
	r := newRig(t, "hang", func(c *Config) { c.MemoryMax = "256M" })
	a := r.spawn(t, "t1")
	limit := filepath.Join(a.MemoryCgroup, mem.cgroup.limitFile())
	testenv.WaitFor(t, 20*time.Second, "the agent to enter its cgroup", func() bool { return len(cgroupPIDs(a.MemoryCgroup)) > 0 })
	if b, err := os.ReadFile(limit); err != nil || strings.TrimSpace(string(b)) != "268435456" {
		t.Errorf("%s: %q %v, want 268435456", limit, b, err)
	}
	if _, err := r.m.Kill(context.Background(), "t1", "test over"); err != nil {
		t.Fatal(err)
	}
	// The kernel removes a cgroup only once no process is left in it.
	if _, err := os.Stat(a.MemoryCgroup); !os.IsNotExist(err) {
		t.Errorf("cgroup %s left after the agent ended: %v", a.MemoryCgroup, err)
	}
}
