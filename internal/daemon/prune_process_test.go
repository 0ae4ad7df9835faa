//go:build linux

package daemon_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/task"
	"github.com/warden-dev/warden/internal/testenv"
)

// Task retention on a real store and real directories, through the built
// binary: `warden task prune --dry-run` removes nothing and says what
// would go; `warden task prune` removes the directories of tasks finished
// over serve.task_files_days ago and of tasks without rows, deletes the
// rows of those finished over serve.task_rows_days ago, keeps a running
// task's and a recent one's (directories and agent logs alike), and keeps (and names) a task whose worktree
// is still there. The daemon does the same at its start.
func TestTaskRetention(t *testing.T) {
	h := newHome(t)
	now := testenv.Now().UTC()
	st, err := sqlite.Open(context.Background(), filepath.Join(h.dir, "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	mk := func(id string, status task.Status, daysAgo int) {
		at := now.AddDate(0, 0, -daysAgo-1)
		if _, _, err := st.CreateTask(ctx, &task.Task{ID: id, Project: h.dir, Prompt: "p", Status: task.Queued, CreatedAt: at, UpdatedAt: at}, 0); err != nil {
			t.Fatal(err)
		}
		if status != task.Queued {
			if _, err := st.UpdateTask(ctx, id, task.Change{To: task.Running, Time: at}); err != nil {
				t.Fatal(err)
			}
		}
		if status.Final() {
			if _, err := st.UpdateTask(ctx, id, task.Change{To: status, Time: now.AddDate(0, 0, -daysAgo)}); err != nil {
				t.Fatal(err)
			}
		}
		os.MkdirAll(filepath.Join(h.dir, "tasks", id), 0o700)
		os.MkdirAll(filepath.Join(h.dir, "logs", "agents"), 0o700)
		os.WriteFile(filepath.Join(h.dir, "logs", "agents", id+".log"), []byte("agent output\n"), 0o600)
	}
	mk("ancient", task.Done, 200)      // rows and directory go
	mk("oldfail", task.Failed, 30)     // directory goes, rows stay
	mk("recent", task.Done, 2)         // both stay
	mk("running", task.Running, 400)   // never
	mk("worktree", task.Cancelled, 95) // rows kept for its worktree; directory goes
	st.Close()
	os.MkdirAll(filepath.Join(h.dir, "worktrees", "proj", "worktree"), 0o700)
	orphan := filepath.Join(h.dir, "tasks", "orphan")
	os.MkdirAll(orphan, 0o700)
	old := now.AddDate(0, 0, -20)
	os.Chtimes(orphan, old, old)

	dirs := func() string {
		es, _ := os.ReadDir(filepath.Join(h.dir, "tasks"))
		var out []string
		for _, e := range es {
			out = append(out, e.Name())
		}
		return strings.Join(out, " ")
	}
	const all = "ancient oldfail orphan recent running worktree"
	out, code := h.warden("task", "prune", "--dry-run", "--json")
	var r struct {
		DryRun bool `json:"dry_run"`
		Dirs   []string
		Logs   []string
		Tasks  []string
		Kept   []struct{ Task, Path, Why string }
	}
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil || !r.DryRun || len(r.Dirs) != 4 || len(r.Logs) != 3 || strings.Join(r.Tasks, " ") != "ancient" ||
		len(r.Kept) != 1 || r.Kept[0].Task != "worktree" || !strings.Contains(r.Kept[0].Why, "git worktree remove") {
		t.Fatalf("prune --dry-run --json: exit %d\n%s", code, out)
	}
	if got := dirs(); got != all {
		t.Fatalf("a dry run removed directories: %s", got)
	}

	out, code = h.warden("task", "prune")
	if code != 0 || !strings.Contains(out, "removed 4 task directories and 3 agent logs") || !strings.Contains(out, "deleted 1 finished tasks") || !strings.Contains(out, "kept worktree:") {
		t.Fatalf("prune: exit %d\n%s", code, out)
	}
	if got := dirs(); got != "recent running" {
		t.Errorf("directories left: %s", got)
	}
	if logs, _ := filepath.Glob(filepath.Join(h.dir, "logs", "agents", "*.log")); len(logs) != 2 {
		t.Errorf("agent logs left: %v", logs)
	}
	ts := h.tasks()
	if _, ok := ts["ancient"]; ok || len(ts) != 4 {
		t.Errorf("rows left: %v", ts)
	}

	// The daemon prunes at its start: a directory due again goes.
	os.MkdirAll(filepath.Join(h.dir, "tasks", "oldfail"), 0o700)
	h.serve()
	h.waitFor("the daemon's prune", func() bool { return dirs() == "recent running" })
}
