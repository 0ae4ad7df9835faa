package agent

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// MemoryScopeArgv wraps an agent in a transient systemd user scope with
// MemoryMax: the kernel's cgroup limit then covers the agent and every
// process it starts, and the scope goes away with them.
func MemoryScopeArgv(task, max string) []string {
	return []string{"systemd-run", "--user", "--scope", "--quiet", "--collect",
		"--unit", "warden-agent-" + task, "-p", "MemoryMax=" + max, "--"}
}

var memOnce = sync.OnceValues(probeMemoryLimit)

// MemoryLimit reports whether a memory limit per agent can be set here,
// and if not, why in plain words (`warden doctor` prints it). It runs
// one `systemd-run --user --scope true` the first time.
func MemoryLimit() (bool, string) { return memOnce() }

func probeMemoryLimit() (bool, string) {
	if _, err := exec.LookPath("systemd-run"); err != nil {
		return false, "systemd-run is not installed, so agents run without a memory limit"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "systemd-run", "--user", "--scope", "--quiet", "--collect", "-p", "MemoryMax=1G", "true")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		why := strings.TrimSpace(errb.String())
		if why == "" {
			why = err.Error()
		}
		return false, "no systemd user instance to make a memory scope (systemd-run --user: " + why + "), so agents run without a memory limit"
	}
	return true, "agents run in a systemd user scope with MemoryMax"
}
