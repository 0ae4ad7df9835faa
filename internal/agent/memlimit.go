package agent

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/warden-dev/warden/internal/config"
)

// How agents get agent.memory_max, best first: a transient systemd scope
// (the user's instance, or the system's for root), where systemd keeps
// the cgroup tree; else a cgroup warden makes itself (cgroup.go); else
// none, which `warden doctor` says plainly.
const (
	memNone   = "none"
	memScope  = "systemd-scope"
	memCgroup = "cgroup"
)

// memoryMethod is what the probe found.
type memoryMethod struct {
	kind   string
	user   bool         // memScope: systemd-run --user
	cgroup *cgroupLimit // memCgroup
	why    string       // for doctor: how, or why there is no limit
}

var memOnce = sync.OnceValue(probeMemoryLimit)

// MemoryLimit reports whether a memory limit per agent can be set here,
// and how or why not in plain words (`warden doctor` prints it). The
// first call probes: one `systemd-run --scope true`, and a cgroup made and
// removed.
func MemoryLimit() (bool, string) {
	m := memOnce()
	return m.kind != memNone, m.why
}

func probeMemoryLimit() memoryMethod {
	scopeWhy := "systemd-run is not installed"
	if _, err := exec.LookPath("systemd-run"); err == nil {
		if why := tryScope(true); why == "" {
			return memoryMethod{kind: memScope, user: true, why: "agents run in a systemd user scope with MemoryMax"}
		} else {
			scopeWhy = "no systemd user instance to make a scope (systemd-run --user: " + why + ")"
		}
		if os.Geteuid() == 0 {
			if why := tryScope(false); why == "" {
				return memoryMethod{kind: memScope, why: "agents run in a systemd scope with MemoryMax"}
			}
		}
	}
	cg, why := findCgroupLimit()
	if cg != nil {
		return memoryMethod{kind: memCgroup, cgroup: cg, why: cg.Describe() + " (" + scopeWhy + ")"}
	}
	return memoryMethod{kind: memNone, why: scopeWhy + ", and no cgroup warden may make (" + why + "), so agents run without a memory limit"}
}

func tryScope(user bool) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	args := []string{"--scope", "--quiet", "--collect", "-p", "MemoryMax=1G", "true"}
	if user {
		args = append([]string{"--user"}, args...)
	}
	cmd := exec.CommandContext(ctx, "systemd-run", args...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		if why := strings.TrimSpace(errb.String()); why != "" {
			return why
		}
		return err.Error()
	}
	return ""
}

// MemoryScopeArgv wraps an agent in a transient systemd scope with
// MemoryMax: the kernel's cgroup limit then covers the agent and every
// process it starts, and the scope goes away with them.
func MemoryScopeArgv(task, max string, user bool) []string {
	argv := []string{"systemd-run", "--scope", "--quiet", "--collect",
		"--unit", "warden-agent-" + task, "-p", "MemoryMax=" + max, "--"}
	if user {
		argv = append([]string{argv[0], "--user"}, argv[1:]...)
	}
	return argv
}

// limitMemory applies agent.memory_max to the agent ls launches, by the
// method the probe found: a scope around its argv, or a cgroup made now
// for the launch script to enter. With no method it returns a note for
// the agent's record instead: the agent runs without a limit.
func (m *Manager) limitMemory(ls *LaunchSpec) (note string, err error) {
	max, err := config.MemoryBytes(m.cfg.MemoryMax, totalMemory())
	if err != nil {
		return "", fmt.Errorf("agent.memory_max %w", err)
	}
	if max == 0 {
		return "", nil
	}
	switch mem := memOnce(); mem.kind {
	case memScope:
		ls.MemoryMax, ls.MemoryUser = m.cfg.MemoryMax, mem.user
	case memCgroup:
		if ls.MemoryCgroup, err = mem.cgroup.create(ls.Task, max); err != nil {
			return "", fmt.Errorf("agent.memory_max %s: %w", m.cfg.MemoryMax, err)
		}
	default:
		return "no memory limit: " + mem.why, nil
	}
	return "", nil
}
