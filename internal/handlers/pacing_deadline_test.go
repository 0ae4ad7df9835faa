package handlers_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/hook"
	"github.com/warden-dev/warden/internal/pace/quota"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/testenv"
)

// The second half of the hook test, on the built binary: with the
// hook's deadline (shortened to 3 s by the test-only
// WARDEN_TEST_HOOK_DEADLINE_MS) shorter than the decided 7 s delay,
// PostToolUse sleeps only until the deadline (less the reserve kept for
// writing the record), exits 0 and records the sleep it did.
func TestPostToolUseSleepStopsAtTheDeadline(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and sleeps 3 s")
	}
	bin := testenv.Binary(t, "warden")
	now := time.Now().UTC()
	util, reset, ok := figuresFor(7, now)
	home := t.TempDir()
	if !ok {
		// Weekend (UTC): every overage is an emergency at max_delay.
		if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte("[pacing]\nmax_delay = 7\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		util = 60
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(home, "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.AddSnapshot(ctx, &quota.Snapshot{Time: now, Source: quota.SourceStatusline,
		FiveHour: quota.Window{Util: &util, ResetsAt: &reset}}); err != nil {
		t.Fatal(err)
	}

	const deadline = 3000 * time.Millisecond
	cmd := exec.Command(bin, "hook", "--harness", "claude")
	cmd.Env = append(os.Environ(), "WARDEN_HOME="+home, "CLAUDE_PROJECT_DIR="+t.TempDir(),
		"CLAUDE_CONFIG_DIR="+t.TempDir(), "CLAUDE_CODE_OAUTH_TOKEN=", // no token: no poller
		hook.TestDeadlineEnv+"=3000")
	cmd.Stdin = strings.NewReader(postToolUse)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err = cmd.Run()
	el := time.Since(start)
	if err != nil || stderr.Len() > 0 {
		t.Fatalf("exit %v, stderr %q", err, stderr.String())
	}
	// It ended at the deadline, not after the 7 s delay (the slept time
	// recorded below is the precise check; this margin is for process
	// start-up on a loaded machine).
	if el > deadline+2*time.Second {
		t.Errorf("hook took %v, want it to stop at the %v deadline", el, deadline)
	}

	d, err := st.LatestDecision(ctx)
	if err != nil || d == nil {
		t.Fatalf("no decision: %v", err)
	}
	if d.DelaySeconds != 7 {
		t.Fatalf("decided delay %d s, want 7 s", d.DelaySeconds)
	}
	evs, err := st.Events(ctx, store.Filter{Event: "PostToolUse"})
	if err != nil || len(evs) != 1 {
		t.Fatalf("events %v %v", evs, err)
	}
	// The record keeps 400 ms of the deadline for itself: the sleep is the
	// rest of the 3 s after start-up, and never the 7 s.
	t.Logf("decided 7 s, deadline %v: process %v, slept_ms %d", deadline, el.Round(time.Millisecond), evs[0].SleptMS)
	if ms := evs[0].SleptMS; ms < 1500 || ms > deadline.Milliseconds() {
		t.Errorf("slept_ms = %d, want the time left before the %v deadline", ms, deadline)
	}
}
