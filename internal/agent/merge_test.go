package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/testenv"
)

// mergeRepo is a project on main with a task branch warden/t1 that
// changes app.txt and adds new.txt in one commit.
func mergeRepo(t *testing.T) string {
	t.Helper()
	p := testenv.GitRepo(t, "app.txt", "one\ntwo\nthree\n")
	testenv.Git(t, p, "branch", "warden/t1")
	wt := filepath.Join(t.TempDir(), "wt")
	testenv.Git(t, p, "worktree", "add", "--quiet", wt, "warden/t1")
	os.WriteFile(filepath.Join(wt, "app.txt"), []byte("one\nTWO by the agent\nthree\n"), 0o644)
	os.WriteFile(filepath.Join(wt, "new.txt"), []byte("new\n"), 0o644)
	testenv.Git(t, wt, "add", "-A")
	testenv.Git(t, wt, "commit", "--quiet", "-m", "agent: change two, add new")
	testenv.Git(t, p, "worktree", "remove", "--force", wt)
	return p
}

func sha(t *testing.T, dir, ref string) string {
	return strings.TrimSpace(testenv.Git(t, dir, "rev-parse", ref))
}

func merge(p string, dry bool) (*MergeResult, error) {
	return MergeBranch(context.Background(), MergeOptions{Project: p, Branch: "warden/t1", Base: "main", Message: "Merge task t1", DryRun: dry})
}

// A clean merge with main checked out in the project: a merge commit on
// main with both parents, the files updated in the checkout, and
// uncommitted work elsewhere in the checkout left as it was.
func TestMergeIntoCheckedOutBase(t *testing.T) {
	p := mergeRepo(t)
	os.WriteFile(filepath.Join(p, "notes.txt"), []byte("mine, untracked\n"), 0o644)
	before := sha(t, p, "main")
	dry, err := merge(p, true)
	if err != nil || !dry.DryRun || dry.Commit != "" || len(dry.Commits) != 1 || strings.Join(dry.Files, ",") != "app.txt,new.txt" || dry.Checkout != p {
		t.Fatalf("dry run: %+v %v", dry, err)
	}
	if sha(t, p, "main") != before {
		t.Fatal("the dry run moved main")
	}
	res, err := merge(p, false)
	if err != nil {
		t.Fatal(err)
	}
	if res.Commit != sha(t, p, "main") || sha(t, p, "main^1") != before || sha(t, p, "main^2") != sha(t, p, "warden/t1") {
		t.Errorf("main is not a merge of the old main and the branch: %+v\n%s", res, testenv.Git(t, p, "log", "--oneline", "--graph", "main"))
	}
	if msg := strings.TrimSpace(testenv.Git(t, p, "log", "-1", "--format=%s", "main")); msg != "Merge task t1" {
		t.Errorf("message %q", msg)
	}
	if b, _ := os.ReadFile(filepath.Join(p, "app.txt")); !strings.Contains(string(b), "TWO by the agent") {
		t.Errorf("the checkout's app.txt was not updated: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(p, "notes.txt")); string(b) != "mine, untracked\n" {
		t.Errorf("an unrelated untracked file changed: %q", b)
	}
	if st := testenv.Git(t, p, "status", "--porcelain"); strings.TrimSpace(st) != "?? notes.txt" {
		t.Errorf("status after the merge:\n%s", st)
	}
	var ref *MergeRefusal
	if _, err := merge(p, false); !errors.As(err, &ref) || !strings.Contains(err.Error(), "nothing to merge") {
		t.Errorf("merging again: %v", err)
	}
}

// A conflicting merge is refused naming the file, and the repository is
// exactly as it was: main, the checkout's files, no merge in progress.
func TestMergeConflictRefusedNothingChanged(t *testing.T) {
	p := mergeRepo(t)
	os.WriteFile(filepath.Join(p, "app.txt"), []byte("one\nTWO on main\nthree\n"), 0o644)
	testenv.Git(t, p, "commit", "--quiet", "-am", "main: change two")
	before := sha(t, p, "main")
	_, err := merge(p, false)
	var ref *MergeRefusal
	if !errors.As(err, &ref) || strings.Join(ref.Files, ",") != "app.txt" || !strings.Contains(err.Error(), "conflicts in app.txt") {
		t.Fatalf("conflicting merge: %v", err)
	}
	if sha(t, p, "main") != before {
		t.Error("main moved")
	}
	if st := testenv.Git(t, p, "status", "--porcelain"); strings.TrimSpace(st) != "" {
		t.Errorf("the checkout changed:\n%s", st)
	}
	if _, err := os.Stat(filepath.Join(p, ".git", "MERGE_HEAD")); err == nil {
		t.Error("a merge was left in progress")
	}
}

// Uncommitted changes in the base checkout to a file the merge changes
// refuse the merge, naming the file; the changes stay.
func TestMergeRefusesDirtyFilesItWouldTouch(t *testing.T) {
	p := mergeRepo(t)
	os.WriteFile(filepath.Join(p, "app.txt"), []byte("one\ntwo\nthree\nmine\n"), 0o644)
	before := sha(t, p, "main")
	_, err := merge(p, false)
	var ref *MergeRefusal
	if !errors.As(err, &ref) || strings.Join(ref.Files, ",") != "app.txt" || !strings.Contains(err.Error(), "uncommitted changes the merge would touch: app.txt") {
		t.Fatalf("dirty checkout: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(p, "app.txt")); !strings.HasSuffix(string(b), "mine\n") || sha(t, p, "main") != before {
		t.Error("the uncommitted change or main changed")
	}
	// An untracked file the merge would create counts too.
	os.WriteFile(filepath.Join(p, "app.txt"), []byte("one\ntwo\nthree\n"), 0o644)
	os.WriteFile(filepath.Join(p, "new.txt"), []byte("mine\n"), 0o644)
	if _, err := merge(p, false); !errors.As(err, &ref) || strings.Join(ref.Files, ",") != "new.txt" {
		t.Errorf("untracked file in the way: %v", err)
	}
}

// With the base not checked out anywhere, the merge commit is made
// without a checkout and the branch moved to it; no working tree changes.
func TestMergeIntoBaseNotCheckedOut(t *testing.T) {
	p := mergeRepo(t)
	testenv.Git(t, p, "checkout", "--quiet", "-b", "other")
	before := sha(t, p, "main")
	res, err := merge(p, false)
	if err != nil {
		t.Fatal(err)
	}
	if res.Checkout != "" || res.Commit != sha(t, p, "main") || sha(t, p, "main^1") != before || sha(t, p, "main^2") != sha(t, p, "warden/t1") {
		t.Errorf("merge without a checkout: %+v", res)
	}
	if got := testenv.Git(t, p, "show", "main:app.txt"); !strings.Contains(got, "TWO by the agent") {
		t.Errorf("main's app.txt: %q", got)
	}
	if b, _ := os.ReadFile(filepath.Join(p, "app.txt")); strings.Contains(string(b), "agent") {
		t.Error("the checkout of another branch changed")
	}
	if _, err := merge(p, false); err == nil {
		t.Error("merged twice")
	}
	if _, err := MergeBranch(context.Background(), MergeOptions{Project: p, Branch: "warden/gone", Base: "main"}); err == nil || !strings.Contains(err.Error(), "warden/gone does not exist") {
		t.Errorf("missing branch: %v", err)
	}
}

// --pr: the GitHub remote is found (origin first), gh must be logged in,
// the branch is pushed and `gh pr create` is called with the repo, base,
// head, title and body. gh is an external service: a script stands in
// for it and records its argv; pushes go to a local bare repository
// (pushInsteadOf), while the remote's URL is GitHub's.
func TestOpenPRWithGH(t *testing.T) {
	ctx := context.Background()
	p := mergeRepo(t)
	o := PROptions{Project: p, Branch: "warden/t1", Base: "main", Title: "Task t1", Body: "body text", GH: filepath.Join(t.TempDir(), "none")}
	var ref *MergeRefusal
	if _, err := OpenPR(ctx, o); !errors.As(err, &ref) || !strings.Contains(err.Error(), "no GitHub remote") {
		t.Fatalf("no remote: %v", err)
	}
	bare := filepath.Join(t.TempDir(), "app.git")
	testenv.Git(t, p, "init", "--quiet", "--bare", bare)
	testenv.Git(t, p, "remote", "add", "upstream", "https://gitlab.example/acme/app.git")
	testenv.Git(t, p, "remote", "add", "origin", "git@github.com:acme/app.git")
	testenv.Git(t, p, "config", "url."+bare+".pushInsteadOf", "git@github.com:acme/app.git")
	if r, repo := GitHubRemote(ctx, p); r != "origin" || repo != "acme/app" {
		t.Errorf("GitHubRemote: %s %s", r, repo)
	}
	if _, err := OpenPR(ctx, o); !errors.As(err, &ref) || !strings.Contains(err.Error(), "gh) is not installed") {
		t.Fatalf("no gh: %v", err)
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "argv")
	o.GH = filepath.Join(dir, "gh")
	os.WriteFile(o.GH, []byte("#!/bin/sh\nprintf '%s\\n' \"$*\" >> "+log+"\n"+
		"if [ \"$1\" = auth ]; then [ -f "+dir+"/loggedin ] && exit 0; echo 'You are not logged into any GitHub hosts' >&2; exit 1; fi\n"+
		"echo https://github.com/acme/app/pull/7\n"), 0o755)
	if _, err := OpenPR(ctx, o); !errors.As(err, &ref) || !strings.Contains(err.Error(), "gh auth login") {
		t.Fatalf("not logged in: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "loggedin"), nil, 0o644)
	o.DryRun = true
	if res, err := OpenPR(ctx, o); err != nil || res.URL != "" || res.Repo != "acme/app" {
		t.Fatalf("dry run: %+v %v", res, err)
	}
	if out := testenv.Git(t, bare, "branch", "--list"); strings.TrimSpace(out) != "" {
		t.Fatalf("the dry run pushed: %s", out)
	}
	o.DryRun = false
	res, err := OpenPR(ctx, o)
	if err != nil || res.URL != "https://github.com/acme/app/pull/7" || res.Remote != "origin" {
		t.Fatalf("pr: %+v %v", res, err)
	}
	if sha(t, bare, "warden/t1") != sha(t, p, "warden/t1") {
		t.Error("the branch was not pushed")
	}
	b, _ := os.ReadFile(log)
	calls := strings.Split(strings.TrimSpace(string(b)), "\n")
	if last := calls[len(calls)-1]; last != "pr create --repo acme/app --base main --head warden/t1 --title Task t1 --body body text" {
		t.Errorf("gh calls:\n%s", b)
	}
}
