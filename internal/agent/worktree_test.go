package agent

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/testenv"
)

func newTask(id string) TaskFile {
	return TaskFile{ID: id, Prompt: "add a greeting", Criteria: []string{"committed"}}
}

func create(t *testing.T, project, root, id string) *Worktree {
	t.Helper()
	wt, err := CreateWorktree(context.Background(), CreateOptions{Project: project, Root: root, Task: newTask(id)})
	if err != nil {
		t.Fatal(err)
	}
	return wt
}

// assertNothingCreated: a refused task leaves no branch, no directory and
// no worktree entry behind.
func assertNothingCreated(t *testing.T, project, root, id string) {
	t.Helper()
	if out := testenv.Git(t, project, "branch", "--list", Branch(id)); strings.TrimSpace(out) != "" {
		t.Errorf("branch %s was left behind", Branch(id))
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("%s is not empty: %v", root, entries)
	}
	if out := testenv.Git(t, project, "worktree", "list", "--porcelain"); strings.Count(out, "worktree ") != 1 {
		t.Errorf("worktree left registered:\n%s", out)
	}
}

func TestCreateWorktree(t *testing.T) {
	project := testenv.GitRepo(t, "README.md", "hello\n")
	root := t.TempDir()
	wt := create(t, project, root, "t1")

	if want := filepath.Join(root, filepath.Base(project), "t1"); wt.Dir != want {
		t.Errorf("dir %s, want %s", wt.Dir, want)
	}
	if got := strings.TrimSpace(testenv.Git(t, wt.Dir, "rev-parse", "--abbrev-ref", "HEAD")); got != "warden/t1" {
		t.Errorf("worktree is on %q, want warden/t1", got)
	}
	mainHead := strings.TrimSpace(testenv.Git(t, project, "rev-parse", "main"))
	if wt.BaseCommit != mainHead || wt.Base != "main" {
		t.Errorf("base %s@%s, want main@%s", wt.Base, wt.BaseCommit, mainHead)
	}
	tf, err := ReadTaskFile(wt.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if tf.ID != "t1" || tf.Prompt != "add a greeting" || tf.Branch != "warden/t1" || tf.BaseCommit != mainHead || len(tf.Criteria) != 1 {
		t.Errorf("task.json: %+v", tf)
	}
	// warden's own files are not the agent's work.
	if st := testenv.Git(t, wt.Dir, "status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Errorf("fresh worktree is dirty:\n%s", st)
	}
	// The project's own checkout is untouched.
	if st := testenv.Git(t, project, "status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Errorf("project checkout changed:\n%s", st)
	}
}

func TestCreateRefusesNotGit(t *testing.T) {
	dir, root := t.TempDir(), t.TempDir()
	_, err := CreateWorktree(context.Background(), CreateOptions{Project: dir, Root: root, Task: newTask("t1")})
	if !errors.Is(err, ErrNotGit) || !strings.Contains(err.Error(), dir) {
		t.Fatalf("err = %v, want ErrNotGit naming %s", err, dir)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("created %v", entries)
	}
}

func TestCreateRefusesDirtyBase(t *testing.T) {
	project := testenv.GitRepo(t, "README.md", "hello\n")
	root := t.TempDir()
	os.WriteFile(filepath.Join(project, "README.md"), []byte("changed\n"), 0o644)
	_, err := CreateWorktree(context.Background(), CreateOptions{Project: project, Root: root, Task: newTask("t1")})
	if !errors.Is(err, ErrDirtyBase) || !strings.Contains(err.Error(), "README.md") {
		t.Fatalf("err = %v, want ErrDirtyBase naming README.md", err)
	}
	assertNothingCreated(t, project, root, "t1")
}

func TestCreateRefusesExistingBranch(t *testing.T) {
	project := testenv.GitRepo(t, "README.md", "hello\n")
	root := t.TempDir()
	testenv.Git(t, project, "branch", "warden/t1")
	_, err := CreateWorktree(context.Background(), CreateOptions{Project: project, Root: root, Task: newTask("t1")})
	if !errors.Is(err, ErrBranchExists) || !strings.Contains(err.Error(), "git branch -D warden/t1") {
		t.Fatalf("err = %v, want ErrBranchExists with the fix", err)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("created %v", entries)
	}
}

func TestCreateRefusesBadTaskIDAndMissingBase(t *testing.T) {
	project := testenv.GitRepo(t, "README.md", "hello\n")
	root := t.TempDir()
	for _, id := range []string{"", "a:b", "a.b", "-x", "../up", strings.Repeat("x", 65)} {
		if _, err := CreateWorktree(context.Background(), CreateOptions{Project: project, Root: root, Task: newTask(id)}); err == nil {
			t.Errorf("task id %q accepted", id)
		}
	}
	_, err := CreateWorktree(context.Background(), CreateOptions{Project: project, Root: root, Base: "nope", Task: newTask("t1")})
	if err == nil || !strings.Contains(err.Error(), `"nope" does not exist`) {
		t.Errorf("missing base: %v", err)
	}
	assertNothingCreated(t, project, root, "t1")
}

// A failure after `git worktree add` (here: the project tracks a file
// named .warden, so .warden/task.json cannot be written) undoes it all.
func TestCreateRollsBackHalfMadeWorktree(t *testing.T) {
	project := testenv.GitRepo(t, ".warden", "a file, not a directory\n")
	root := t.TempDir()
	_, err := CreateWorktree(context.Background(), CreateOptions{Project: project, Root: root, Task: newTask("t1")})
	if err == nil {
		t.Fatal("task.json written under a file named .warden?")
	}
	assertNothingCreated(t, project, root, "t1")
}

// With a remote, the base is fetched first and the task starts from the
// newer remote commit; local commits not pushed yet are kept instead.
func TestCreateFetchesRemoteBase(t *testing.T) {
	upstream := testenv.GitRepo(t, "README.md", "hello\n")
	project := t.TempDir()
	testenv.Git(t, project, "clone", "-q", upstream, ".")
	testenv.Git(t, project, "config", "user.email", "t@example.com")
	testenv.Git(t, project, "config", "user.name", "t")
	os.WriteFile(filepath.Join(upstream, "NEW.md"), []byte("new\n"), 0o644)
	testenv.Git(t, upstream, "add", ".")
	testenv.Git(t, upstream, "commit", "-q", "-m", "upstream moved")
	want := strings.TrimSpace(testenv.Git(t, upstream, "rev-parse", "HEAD"))

	root := t.TempDir()
	wt := create(t, project, root, "t1")
	if wt.BaseCommit != want {
		t.Errorf("started from %s, want the fetched %s", wt.BaseCommit, want)
	}
	if _, err := os.Stat(filepath.Join(wt.Dir, "NEW.md")); err != nil {
		t.Errorf("worktree lacks the upstream commit: %v", err)
	}

	// Local ahead of the remote: local wins.
	testenv.Git(t, project, "pull", "-q")
	os.WriteFile(filepath.Join(project, "LOCAL.md"), []byte("l\n"), 0o644)
	testenv.Git(t, project, "add", "LOCAL.md")
	testenv.Git(t, project, "commit", "-q", "-m", "local")
	local := strings.TrimSpace(testenv.Git(t, project, "rev-parse", "HEAD"))
	if wt2 := create(t, project, root, "t2"); wt2.BaseCommit != local {
		t.Errorf("started from %s, want local %s", wt2.BaseCommit, local)
	}
}

func TestRemoveArchivesDirtyTreeKeepsBranch(t *testing.T) {
	project := testenv.GitRepo(t, "README.md", "hello\n")
	os.WriteFile(filepath.Join(project, "GONE.md"), []byte("to delete\n"), 0o644)
	testenv.Git(t, project, "add", "GONE.md")
	testenv.Git(t, project, "commit", "-q", "-m", "two files")
	root, archives := t.TempDir(), t.TempDir()
	wt := create(t, project, root, "t1")

	// One commit on the branch, then uncommitted work of every kind.
	os.WriteFile(filepath.Join(wt.Dir, "done.txt"), []byte("committed\n"), 0o644)
	testenv.Git(t, wt.Dir, "add", "done.txt")
	testenv.Git(t, wt.Dir, "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q", "-m", "agent work")
	commit := strings.TrimSpace(testenv.Git(t, wt.Dir, "rev-parse", "HEAD"))
	os.WriteFile(filepath.Join(wt.Dir, "README.md"), []byte("hello, edited\n"), 0o644)
	os.Remove(filepath.Join(wt.Dir, "GONE.md"))
	os.MkdirAll(filepath.Join(wt.Dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(wt.Dir, "sub", "new.txt"), []byte("untracked\n"), 0o644)

	res, err := RemoveWorktree(context.Background(), wt, archives)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(archives, "t1.tar.gz"); res.Archive != want {
		t.Fatalf("archive %q, want %q", res.Archive, want)
	}
	files := readArchive(t, res.Archive)
	if files["files/README.md"] != "hello, edited\n" || files["files/sub/new.txt"] != "untracked\n" {
		t.Errorf("archive files: %v", keys(files))
	}
	if _, ok := files["files/.warden/task.json"]; ok {
		t.Error("warden's task.json archived as work")
	}
	patch := files["changes.patch"]
	if !strings.Contains(patch, "deleted file mode") || !strings.Contains(patch, "+hello, edited") {
		t.Errorf("patch lacks the deletion or the edit:\n%s", patch)
	}
	if _, err := os.Stat(wt.Dir); !os.IsNotExist(err) {
		t.Errorf("worktree dir still there: %v", err)
	}
	if _, err := os.Stat(filepath.Dir(wt.Dir)); !os.IsNotExist(err) {
		t.Errorf("empty project dir under the root left behind")
	}
	if out := testenv.Git(t, project, "worktree", "list", "--porcelain"); strings.Contains(out, wt.Dir) {
		t.Errorf("worktree still registered:\n%s", out)
	}
	if got := strings.TrimSpace(testenv.Git(t, project, "rev-parse", "warden/t1")); got != commit {
		t.Errorf("branch warden/t1 at %q, want the agent's commit %s", got, commit)
	}
	// The patch restores the work on the branch.
	check := t.TempDir()
	testenv.Git(t, project, "worktree", "add", "-q", check, "warden/t1")
	os.WriteFile(filepath.Join(check, "p.patch"), []byte(patch), 0o644)
	testenv.Git(t, check, "apply", "--check", "p.patch")
}

func TestRemoveCleanTreeMakesNoArchive(t *testing.T) {
	project := testenv.GitRepo(t, "README.md", "hello\n")
	root, archives := t.TempDir(), t.TempDir()
	wt := create(t, project, root, "t1")
	res, err := RemoveWorktree(context.Background(), wt, archives)
	if err != nil || res.Archive != "" {
		t.Fatalf("res %+v, err %v", res, err)
	}
	if entries, _ := os.ReadDir(archives); len(entries) != 0 {
		t.Errorf("archives: %v", entries)
	}
}

// A worktree deleted behind git's back is pruned, not an error.
func TestRemovePrunesVanishedWorktree(t *testing.T) {
	project := testenv.GitRepo(t, "README.md", "hello\n")
	root := t.TempDir()
	wt := create(t, project, root, "t1")
	os.RemoveAll(wt.Dir)
	if out := testenv.Git(t, project, "worktree", "list", "--porcelain"); !strings.Contains(out, "prunable") {
		t.Fatalf("expected a prunable worktree:\n%s", out)
	}
	if _, err := RemoveWorktree(context.Background(), wt, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	if out := testenv.Git(t, project, "worktree", "list", "--porcelain"); strings.Contains(out, wt.Dir) {
		t.Errorf("not pruned:\n%s", out)
	}
}

func readArchive(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	out := map[string]string{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(tr)
		out[h.Name] = string(b)
	}
}

func keys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}
