package mcp

import (
	"strings"
	"testing"
)

// pushEnv is a project with a bare remote "origin" holding main.
func pushEnv(t *testing.T) (*env, string) {
	e := newEnv(t, nil)
	remote := t.TempDir()
	gitOut(t, remote, "init", "-q", "--bare", "-b", "main")
	gitOut(t, e.dir, "remote", "add", "origin", remote)
	gitOut(t, e.dir, "push", "-q", "origin", "main")
	return e, remote
}

func TestPushFeatureBranch(t *testing.T) {
	e, remote := pushEnv(t)
	gitOut(t, e.dir, "switch", "-q", "-c", "feature")
	write(t, e.dir, "a.txt", "a\n")
	gitOut(t, e.dir, "add", "a.txt")
	gitOut(t, e.dir, "commit", "-qm", "feat: a")
	cs := e.connect(t, Options{})
	var out PushOut
	call(t, cs, "push", nil, &out)
	if !out.Pushed || out.Branch != "feature" || out.Remote != "origin" {
		t.Fatalf("got %+v", out)
	}
	local := gitOut(t, e.dir, "rev-parse", "HEAD")
	if got := gitOut(t, remote, "rev-parse", "refs/heads/feature"); got != local {
		t.Errorf("remote feature %s, local %s", got, local)
	}
	if up := gitOut(t, e.dir, "rev-parse", "--abbrev-ref", "@{u}"); up != "origin/feature\n" {
		t.Errorf("upstream %q", up)
	}
	call(t, cs, "push", nil, &out)
	if !out.Pushed || !strings.Contains(out.Reason, "up to date") {
		t.Errorf("second push: %+v", out)
	}
}

// main, a configured protected branch, a detached HEAD: refused, the
// remote untouched.
func TestPushRefusesProtectedAndDetached(t *testing.T) {
	e, remote := pushEnv(t)
	e.cfg.Policy.ProtectedBranches = []string{"release"}
	before := gitOut(t, remote, "show-ref")
	write(t, e.dir, "a.txt", "a\n")
	gitOut(t, e.dir, "add", "a.txt")
	gitOut(t, e.dir, "commit", "-qm", "feat: a")
	cs := e.connect(t, Options{})
	var out PushOut
	call(t, cs, "push", nil, &out)
	if out.Pushed || !strings.Contains(out.Reason, "main is a protected branch") {
		t.Errorf("main: %+v", out)
	}
	gitOut(t, e.dir, "switch", "-q", "-c", "release")
	call(t, cs, "push", nil, &out)
	if out.Pushed || !strings.Contains(out.Reason, "release is a protected branch") {
		t.Errorf("release: %+v", out)
	}
	gitOut(t, e.dir, "checkout", "-q", "--detach")
	call(t, cs, "push", nil, &out)
	if out.Pushed || !strings.Contains(out.Reason, "HEAD is detached") {
		t.Errorf("detached: %+v", out)
	}
	if after := gitOut(t, remote, "show-ref"); after != before {
		t.Errorf("remote changed:\n%s\nwas\n%s", after, before)
	}
}

// A branch that diverged from the remote's: rejected, never forced.
func TestPushRejectedNonFastForward(t *testing.T) {
	e, remote := pushEnv(t)
	gitOut(t, e.dir, "switch", "-q", "-c", "topic")
	write(t, e.dir, "a.txt", "a\n")
	gitOut(t, e.dir, "add", "a.txt")
	gitOut(t, e.dir, "commit", "-qm", "feat: a")
	gitOut(t, e.dir, "push", "-q", "origin", "topic")
	gitOut(t, e.dir, "reset", "-q", "--hard", "HEAD~1")
	write(t, e.dir, "b.txt", "b\n")
	gitOut(t, e.dir, "add", "b.txt")
	gitOut(t, e.dir, "commit", "-qm", "feat: b")
	remoteTopic := gitOut(t, remote, "rev-parse", "refs/heads/topic")
	cs := e.connect(t, Options{})
	var out PushOut
	call(t, cs, "push", nil, &out)
	if out.Pushed || !strings.Contains(out.Reason, "rejected") || !strings.Contains(out.Reason, "never forces") {
		t.Fatalf("got %+v", out)
	}
	if got := gitOut(t, remote, "rev-parse", "refs/heads/topic"); got != remoteTopic {
		t.Errorf("remote topic moved from %s to %s", remoteTopic, got)
	}
}
