package storetest

import (
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/task"
)

// Finished tasks are listed by when they finished, oldest first; deleting
// takes their history and decisions along and never touches a task that
// is not finished (queued, claimed, running), even when named.
func testTaskPrune(t *testing.T, b SharedBackend) {
	st := b.fresh(t)
	p := st
	base := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	for i, id := range []string{"old-done", "old-failed", "new-done", "running", "queued"} {
		if _, _, err := st.CreateTask(ctx, newTask(id, 0, base.Add(time.Duration(i)*time.Minute)), 0); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []string{"old-done", "old-failed", "new-done", "running"} {
		if _, err := st.UpdateTask(ctx, id, task.Change{To: task.Running, Time: base, Reason: "started"}); err != nil {
			t.Fatal(err)
		}
		if err := st.RecordDecision(ctx, task.Decision{Time: base, TaskID: id, Action: "start", Reason: "slot free"}); err != nil {
			t.Fatal(err)
		}
	}
	finish := func(id string, to task.Status, at time.Time) {
		if _, err := st.UpdateTask(ctx, id, task.Change{To: to, Time: at, Reason: "ended"}); err != nil {
			t.Fatal(err)
		}
	}
	finish("old-failed", task.Failed, base.AddDate(0, 0, 2))
	finish("old-done", task.Done, base.AddDate(0, 0, 1))
	finish("new-done", task.Done, base.AddDate(0, 0, 20))

	cut := base.AddDate(0, 0, 10)
	got, err := p.FinishedTasks(ctx, cut, 0)
	if err != nil || taskIDs(got) != "[old-done old-failed]" {
		t.Fatalf("finished before the cut: %s (%v)", taskIDs(got), err)
	}
	if one, _ := p.FinishedTasks(ctx, cut, 1); taskIDs(one) != "[old-done]" {
		t.Errorf("limit 1: %s", taskIDs(one))
	}
	n, err := p.DeleteTasks(ctx, []string{"old-done", "old-failed", "running", "queued", "nonesuch"})
	if err != nil || n != 2 {
		t.Fatalf("deleted %d (%v), want the 2 finished ones", n, err)
	}
	left, _ := st.Tasks(ctx, task.Filter{})
	if taskIDs(left) != "[queued running new-done]" {
		t.Errorf("left: %s", taskIDs(left))
	}
	if h, _ := st.History(ctx, "old-done"); len(h) != 0 {
		t.Errorf("history of a deleted task: %+v", h)
	}
	if d, _ := st.Decisions(ctx, "old-failed", 0, 0); len(d) != 0 {
		t.Errorf("decisions of a deleted task: %+v", d)
	}
	if h, _ := st.History(ctx, "running"); len(h) == 0 {
		t.Error("the running task's history went too")
	}
	if d, _ := st.Decisions(ctx, "new-done", 0, 0); len(d) != 1 {
		t.Errorf("decisions of a kept task: %+v", d)
	}
	if n, err := p.DeleteTasks(ctx, nil); n != 0 || err != nil {
		t.Errorf("nothing to delete: %d %v", n, err)
	}
}
