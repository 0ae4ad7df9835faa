package mcp

import (
	"strings"
	"testing"
)

// commitAPI confirms or declines, and writes msg as the commit message.
func commitAPI(t *testing.T, verdict, msg string) *fakeAPI {
	return newFakeAPI(t, func(r apiRequest) apiReply {
		if strings.Contains(r.system(), "Conventional Commits") {
			return apiReply{Text: msg}
		}
		return apiReply{Text: verdict}
	})
}

func TestCommitConfirmedWritesConventionalMessage(t *testing.T) {
	api := commitAPI(t, "CONFIRMED", "```\nfeat(greet): greet the world\n\nSay hello to everyone.\n```")
	e := newEnv(t, api)
	write(t, e.dir, "main.go", "package main\n\nfunc main() {\n\tprintln(\"hello, world\")\n}\n")
	write(t, e.dir, "notes.txt", "not staged\n")
	gitOut(t, e.dir, "add", "main.go")
	cs := e.connect(t, Options{})
	var out CommitOut
	call(t, cs, "commit", map[string]any{"skip_check": true}, &out)
	if !out.Committed || out.Branch != "main" || out.Message != "feat(greet): greet the world\n\nSay hello to everyone." {
		t.Fatalf("got %+v", out)
	}
	if head := strings.TrimSpace(gitOut(t, e.dir, "rev-parse", "HEAD")); head != out.Commit {
		t.Errorf("HEAD %s, reported %s", head, out.Commit)
	}
	if msg := gitOut(t, e.dir, "log", "-1", "--format=%B"); strings.TrimSpace(msg) != out.Message {
		t.Errorf("commit message %q", msg)
	}
	if files := gitOut(t, e.dir, "show", "--name-only", "--format=", "HEAD"); files != "main.go\n" {
		t.Errorf("committed files %q, want only the staged main.go", files)
	}
	if st := gitOut(t, e.dir, "status", "--short"); st != "?? notes.txt\n" {
		t.Errorf("status after commit %q", st)
	}
	var judged, wrote bool
	for _, r := range api.requests() {
		judged = judged || isConfirm(r)
		if strings.Contains(r.system(), "Conventional Commits") {
			wrote = true
			if r.Model != "fake-haiku" || !strings.Contains(r.lastUser().Content[0].Text, `+	println("hello, world")`) {
				t.Errorf("message request: model %s, prompt %q", r.Model, r.lastUser().Content[0].Text)
			}
		}
	}
	if !judged || !wrote {
		t.Errorf("confirm asked %v, message asked %v; want both", judged, wrote)
	}
}

// A message the model gets wrong twice is not used: nothing is committed.
func TestCommitRefusesWithoutConventionalMessage(t *testing.T) {
	e := newEnv(t, commitAPI(t, "CONFIRMED", "Updated the greeting."))
	write(t, e.dir, "main.go", "package main\n\nfunc main() {}\n")
	gitOut(t, e.dir, "add", "main.go")
	cs := e.connect(t, Options{})
	var out CommitOut
	call(t, cs, "commit", map[string]any{"skip_check": true}, &out)
	if out.Committed || !strings.Contains(out.Reason, "no commit message") {
		t.Fatalf("got %+v", out)
	}
	if n := gitOut(t, e.dir, "rev-list", "--count", "HEAD"); n != "1\n" {
		t.Errorf("%s commits", n)
	}
}

func TestCommitRefusesDeclined(t *testing.T) {
	e := newEnv(t, commitAPI(t, "DECLINED\n- main.go:3: main does nothing now", "feat: x"))
	write(t, e.dir, "main.go", "package main\n\nfunc main() {}\n")
	gitOut(t, e.dir, "add", "main.go")
	cs := e.connect(t, Options{})
	var out CommitOut
	call(t, cs, "commit", map[string]any{"skip_check": true, "message": "refactor: empty main"}, &out)
	if out.Committed || out.Confirm.Verdict != Declined || !strings.Contains(out.Reason, "main.go:3: main does nothing now") {
		t.Fatalf("got %+v", out)
	}
	if n := gitOut(t, e.dir, "rev-list", "--count", "HEAD"); n != "1\n" {
		t.Errorf("%s commits", n)
	}
	if st := gitOut(t, e.dir, "diff", "--cached", "--name-only"); st != "main.go\n" {
		t.Errorf("index %q, want main.go still staged", st)
	}
}

// Nothing staged, a detached HEAD: a clear result, nothing changed, no
// model asked.
func TestCommitNothingStagedAndDetached(t *testing.T) {
	api := commitAPI(t, "CONFIRMED", "feat: x")
	e := newEnv(t, api)
	cs := e.connect(t, Options{})
	write(t, e.dir, "main.go", "package main\n\nfunc main() {}\n") // changed, not staged
	var out CommitOut
	call(t, cs, "commit", nil, &out)
	if out.Committed || !strings.Contains(out.Reason, "nothing to commit") || out.Confirm.Verdict != NoChanges {
		t.Errorf("nothing staged: %+v", out)
	}
	gitOut(t, e.dir, "add", "main.go")
	gitOut(t, e.dir, "checkout", "-q", "--detach")
	call(t, cs, "commit", nil, &out)
	if out.Committed || !strings.Contains(out.Reason, "HEAD is detached") {
		t.Errorf("detached: %+v", out)
	}
	if len(api.requests()) != 0 {
		t.Errorf("%d model requests, want none", len(api.requests()))
	}
	if n := gitOut(t, e.dir, "rev-list", "--count", "HEAD"); n != "1\n" {
		t.Errorf("%s commits", n)
	}
}

// A pre-commit hook that fails: git's refusal is reported, nothing
// committed.
func TestCommitHookFailureReported(t *testing.T) {
	e := newEnv(t, commitAPI(t, "CONFIRMED", "feat: x"))
	write(t, e.dir, ".git/hooks/pre-commit", "#!/bin/sh\necho 'pre-commit: lint failed' >&2\nexit 1\n")
	chmodX(t, e.dir+"/.git/hooks/pre-commit")
	write(t, e.dir, "main.go", "package main\n\nfunc main() {}\n")
	gitOut(t, e.dir, "add", "main.go")
	cs := e.connect(t, Options{})
	var out CommitOut
	call(t, cs, "commit", map[string]any{"skip_check": true, "message": "fix: x"}, &out)
	if out.Committed || !strings.Contains(out.Reason, "pre-commit: lint failed") {
		t.Fatalf("got %+v", out)
	}
}
