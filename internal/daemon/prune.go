package daemon

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/task"
)

// Task retention: a busy daemon makes a directory per task
// ($WARDEN_HOME/tasks/<id>: the headless agent's output) and rows per task
// (the task, its transitions and decisions), and nothing removed them.
// pruneTasks removes, after serve.task_files_days, the directories of
// finished tasks (and of tasks whose rows are gone), and after
// serve.task_rows_days the finished tasks' rows. It never touches a task
// that is not finished, and never a git worktree: a finished task whose
// worktree is still there (its work could not be archived, or was left
// for review) keeps its rows and is reported, so the branch's work is not
// forgotten. Archives ($WARDEN_HOME/archives) and branches are left alone.

// TaskPruner is what retention asks of the store holding the queue.
type TaskPruner = store.TaskRetention

// pruneStore is the queue's store as retention uses it.
type pruneStore interface {
	TaskPruner
	Task(ctx context.Context, id string) (*task.Task, error)
}

// PruneOptions say what to prune; a days value of 0 prunes nothing of
// its kind.
type PruneOptions struct {
	// TaskDir holds the task directories, AgentLogs the agents' logs,
	// Worktrees the agents' git worktrees (never removed: checked).
	TaskDir, AgentLogs, Worktrees string
	FilesDays, RowsDays           int
	Now                           time.Time
	DryRun                        bool
}

// PruneReport is what a prune did (or, dry, would do).
type PruneReport struct {
	DryRun    bool        `json:"dry_run"`
	FilesDays int         `json:"files_days"`
	RowsDays  int         `json:"rows_days"`
	Dirs      []string    `json:"dirs"`  // task directories removed
	Logs      []string    `json:"logs"`  // agents' logs removed
	Tasks     []string    `json:"tasks"` // task ids whose rows were deleted
	Kept      []PruneKept `json:"kept"`  // due, but kept, and why
	Errors    []string    `json:"errors,omitempty"`
}

// PruneKept is a finished task retention left alone.
type PruneKept struct {
	Task string `json:"task"`
	Path string `json:"path"`
	Why  string `json:"why"`
}

// pruneBatch bounds one pass over the rows; the rest waits for the next.
// pruneDeleteBatch is the tasks one transaction deletes.
const pruneBatch, pruneDeleteBatch = 5000, 100

func pruneTasks(ctx context.Context, st pruneStore, o PruneOptions) (PruneReport, error) {
	r := PruneReport{DryRun: o.DryRun, FilesDays: o.FilesDays, RowsDays: o.RowsDays, Dirs: []string{}, Logs: []string{}, Tasks: []string{}, Kept: []PruneKept{}}
	if o.RowsDays > 0 {
		due, err := st.FinishedTasks(ctx, o.Now.AddDate(0, 0, -o.RowsDays), pruneBatch)
		if err != nil {
			return r, err
		}
		var ids []string
		for _, t := range due {
			if wt := worktreeOf(o.Worktrees, t.ID); wt != "" {
				r.Kept = append(r.Kept, PruneKept{Task: t.ID, Path: wt,
					Why: "its git worktree is still there (work not archived, branch warden/" + t.ID + " maybe unmerged): review it, `git worktree remove` it, and the next prune takes the task"})
				continue
			}
			ids = append(ids, t.ID)
		}
		// In small transactions: hooks write to the same SQLite file and
		// wait while one holds the write lock.
		for len(ids) > 0 {
			n := min(len(ids), pruneDeleteBatch)
			if !o.DryRun {
				if _, err := st.DeleteTasks(ctx, ids[:n]); err != nil {
					return r, err
				}
			}
			r.Tasks = append(r.Tasks, ids[:n]...)
			ids = ids[n:]
		}
	}
	if o.FilesDays > 0 || o.RowsDays > 0 {
		if err := pruneDirs(ctx, st, o, &r); err != nil {
			return r, err
		}
	}
	return r, nil
}

// pruneDirs removes the task directories and the agents' logs
// ($WARDEN_HOME/logs/agents/<id>.log) that are due.
func pruneDirs(ctx context.Context, st pruneStore, o PruneOptions, r *PruneReport) error {
	dirs, err := pruneEntries(ctx, st, o, r, o.TaskDir, func(e fs.DirEntry) (string, bool) { return e.Name(), e.IsDir() })
	if err != nil {
		return err
	}
	logs, err := pruneEntries(ctx, st, o, r, o.AgentLogs, func(e fs.DirEntry) (string, bool) {
		id, ok := strings.CutSuffix(e.Name(), ".log")
		return id, ok && e.Type().IsRegular()
	})
	r.Dirs, r.Logs = append(r.Dirs, dirs...), append(r.Logs, logs...)
	return err
}

// pruneEntries removes the entries of root that pick names a task for
// and that are due: a finished task's after FilesDays, one whose task has
// no row (pruned, or its store replaced) once it is as old, or at once
// when its rows were deleted in this prune. It returns their paths.
func pruneEntries(ctx context.Context, st pruneStore, o PruneOptions, r *PruneReport, root string, pick func(fs.DirEntry) (string, bool)) ([]string, error) {
	if root == "" {
		return nil, nil
	}
	entries, err := os.ReadDir(root)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("task files %s: %w", root, err)
	}
	gone := map[string]bool{}
	for _, id := range r.Tasks {
		gone[id] = true
	}
	cut := o.Now.AddDate(0, 0, -o.FilesDays)
	var out []string
	for _, e := range entries {
		id, ok := pick(e)
		if !ok {
			continue
		}
		path := filepath.Join(root, e.Name())
		due := gone[id]
		if !due && o.FilesDays > 0 {
			t, err := st.Task(ctx, id)
			switch {
			case errors.Is(err, task.ErrNotFound):
				fi, ferr := e.Info()
				due = ferr == nil && fi.ModTime().Before(cut)
			case err != nil:
				return out, err
			default:
				due = t.Status.Final() && t.FinishedAt != nil && t.FinishedAt.Before(cut)
			}
		}
		if !due {
			continue
		}
		if !o.DryRun {
			if err := os.RemoveAll(path); err != nil {
				r.Errors = append(r.Errors, err.Error())
				continue
			}
		}
		out = append(out, path)
	}
	sort.Strings(out)
	return out, nil
}

// worktreeOf is task id's worktree ($WARDEN_HOME/worktrees/<project>/<id>)
// when one is still there, else "".
func worktreeOf(root, id string) string {
	if root == "" {
		return ""
	}
	m, _ := filepath.Glob(filepath.Join(root, "*", id))
	if len(m) > 0 {
		return m[0]
	}
	return ""
}

// runPrune prunes every interval until ctx ends (the first pass at once),
// with the retention the config says at that moment; a pass that removed
// something is logged.
func runPrune(ctx context.Context, p *Parts, st pruneStore, interval time.Duration) {
	for {
		if p.Guard.Current() != nil {
			// A store that takes no writes takes no deletes either.
			select {
			case <-ctx.Done():
				return
			case <-time.After(interval):
			}
			continue
		}
		cfg := p.Options.cfg()
		r, err := pruneTasks(ctx, st, PruneOptions{TaskDir: p.Options.TaskDir,
			AgentLogs: filepath.Join(p.Options.Home, "logs", "agents"), Worktrees: filepath.Join(p.Options.Home, "worktrees"),
			FilesDays: cfg.Serve.TaskFilesDays, RowsDays: cfg.Serve.TaskRowsDays, Now: time.Now()})
		switch {
		case err != nil && ctx.Err() == nil:
			p.Log.Error("task retention", "err", err)
		case len(r.Dirs)+len(r.Logs)+len(r.Tasks)+len(r.Kept)+len(r.Errors) > 0:
			p.Log.Info("task retention", "dirs_removed", len(r.Dirs), "logs_removed", len(r.Logs), "tasks_deleted", len(r.Tasks), "kept", r.Kept, "errors", r.Errors)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(interval):
		}
	}
}
