package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/task"
)

func newTask(id string, pri int, at time.Time) *task.Task {
	return &task.Task{ID: id, Project: "/p", Prompt: "do " + id, Priority: pri, Status: task.Queued, Source: "test", CreatedAt: at, UpdatedAt: at}
}

func testTaskQueueOrderClaimAndHistory(t *testing.T, b SharedBackend) {
	st := b.fresh(t)
	base := time.Date(2026, 11, 26, 1, 0, 0, 0, time.UTC)
	for i, tc := range []struct {
		id  string
		pri int
	}{{"a", 0}, {"b", 5}, {"c", 0}, {"d", 5}} {
		if _, created, err := st.CreateTask(ctx, newTask(tc.id, tc.pri, base.Add(time.Duration(i)*time.Second)), 0); err != nil || !created {
			t.Fatalf("create %s: %v %v", tc.id, created, err)
		}
	}
	got0, err := st.Task(ctx, "a")
	if err != nil || got0.Prompt != "do a" || got0.Status != task.Queued || !got0.CreatedAt.Equal(base) || got0.ClaimedAt != nil {
		t.Fatalf("task a: %+v %v", got0, err)
	}
	if _, err := st.Task(ctx, "zz"); !errors.Is(err, task.ErrNotFound) {
		t.Errorf("unknown task: %v", err)
	}
	// Highest priority first, then oldest: b, d, a, c.
	var got []string
	for i := 0; i < 5; i++ {
		c, err := st.ClaimNext(ctx, "me", "", "slot free", base.Add(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		if c == nil {
			break
		}
		if c.Status != task.Claimed || c.Attempts != 1 || c.Owner != "me" || c.ClaimedAt == nil {
			t.Errorf("claimed %+v", c)
		}
		got = append(got, c.ID)
	}
	if fmt.Sprint(got) != "[b d a c]" {
		t.Errorf("claim order %v, want [b d a c]", got)
	}
	res := "ok"
	done, err := st.UpdateTask(ctx, "b", task.Change{From: []task.Status{task.Claimed}, To: task.Running, Reason: "started", Time: base.Add(2 * time.Minute)})
	if err != nil || done.StartedAt == nil {
		t.Fatalf("running: %+v %v", done, err)
	}
	done, err = st.UpdateTask(ctx, "b", task.Change{From: []task.Status{task.Running}, To: task.Done, Reason: "finished", Result: &res, Time: base.Add(3 * time.Minute)})
	if err != nil || done.Status != task.Done || done.Result != "ok" || done.FinishedAt == nil || !done.StartedAt.Equal(base.Add(2*time.Minute)) {
		t.Fatalf("done: %+v %v", done, err)
	}
	h, err := st.History(ctx, "b")
	if err != nil {
		t.Fatal(err)
	}
	var moves []string
	for _, tr := range h {
		moves = append(moves, fmt.Sprintf("%s>%s:%s", tr.From, tr.To, tr.Reason))
	}
	if want := "[>queued:created by test queued>claimed:slot free claimed>running:started running>done:finished]"; fmt.Sprint(moves) != want {
		t.Errorf("history %v\nwant %s", moves, want)
	}
	// Requeue clears the claim; the task is claimable again.
	rq, err := st.UpdateTask(ctx, "a", task.Change{From: []task.Status{task.Claimed}, To: task.Queued, Reason: "lost", Requeue: true})
	if err != nil || rq.Owner != "" || rq.ClaimedAt != nil || rq.Attempts != 1 {
		t.Errorf("requeued %+v %v", rq, err)
	}
	counts, _ := st.CountTasks(ctx)
	if counts[task.Queued] != 1 || counts[task.Claimed] != 2 || counts[task.Done] != 1 {
		t.Errorf("counts %v", counts)
	}
	again, err := st.ClaimNext(ctx, "other", "", "retry", base.Add(4*time.Minute))
	if err != nil || again == nil || again.ID != "a" || again.Attempts != 2 || again.Owner != "other" {
		t.Errorf("claim of the requeued task: %+v %v", again, err)
	}
	// Listing: newest first, by status and project.
	all, _ := st.Tasks(ctx, task.Filter{})
	if len(all) != 4 || all[0].ID != "d" || all[3].ID != "a" {
		t.Errorf("tasks newest first: %v", taskIDs(all))
	}
	claimed, _ := st.Tasks(ctx, task.Filter{Statuses: []task.Status{task.Claimed, task.Done}, Limit: 2})
	if taskIDs(claimed) != "[d c]" {
		t.Errorf("claimed or done, 2: %s", taskIDs(claimed))
	}
	if none, _ := st.Tasks(ctx, task.Filter{Project: "/elsewhere"}); len(none) != 0 {
		t.Errorf("other project: %v", taskIDs(none))
	}
}

func taskIDs(ts []task.Task) string {
	var out []string
	for _, t := range ts {
		out = append(out, t.ID)
	}
	return fmt.Sprint(out)
}

func testTaskIdempotencyAndQueueLimit(t *testing.T, b SharedBackend) {
	st := b.fresh(t)
	now := time.Now()
	a := newTask("k1", 0, now)
	a.IdempotencyKey = "key-1"
	got, created, err := st.CreateTask(ctx, a, 2)
	if err != nil || !created || got.IdempotencyKey != "key-1" {
		t.Fatalf("first: %+v %v %v", got, created, err)
	}
	again := newTask("k2", 0, now)
	again.IdempotencyKey, again.Prompt = "key-1", a.Prompt
	got, created, err = st.CreateTask(ctx, again, 2)
	if err != nil || created || got.ID != "k1" {
		t.Errorf("retry with the key: %+v created=%v %v, want task k1 back", got, created, err)
	}
	other := newTask("k3", 0, now)
	other.IdempotencyKey, other.Prompt = "key-1", "something else"
	if _, _, err := st.CreateTask(ctx, other, 2); !errors.Is(err, task.ErrKeyReused) {
		t.Errorf("key with another prompt: %v", err)
	}
	if _, _, err := st.CreateTask(ctx, newTask("k4", 0, now), 2); err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.CreateTask(ctx, newTask("k5", 0, now), 2); !errors.Is(err, task.ErrQueueFull) {
		t.Errorf("third task with queue_size 2: %v", err)
	}
	// A retry of a task already made is answered even when the queue is full.
	if got, created, err := st.CreateTask(ctx, again, 2); err != nil || created || got.ID != "k1" {
		t.Errorf("retry on a full queue: %+v %v %v", got, created, err)
	}
	ts, _ := st.Tasks(ctx, task.Filter{})
	if len(ts) != 2 {
		t.Errorf("%d tasks stored, want 2", len(ts))
	}
	// Concurrent creates with one key on two handles make one task.
	x, y := b.twin(t)
	var wg sync.WaitGroup
	made := make(chan string, 8)
	for i := range 8 {
		st := []Shared{x, y}[i%2]
		wg.Go(func() {
			tk := newTask(fmt.Sprint("r", i), 0, now)
			tk.IdempotencyKey, tk.Prompt = "race", "same"
			got, created, err := st.CreateTask(ctx, tk, 0)
			if err != nil {
				t.Error(err)
				return
			}
			if created {
				made <- got.ID
			}
		})
	}
	wg.Wait()
	close(made)
	if n := len(made); n != 1 {
		t.Errorf("%d tasks made for one idempotency key, want 1", n)
	}
}

// A task pinned to a system is claimed only by that system's workers.
func testTaskPinnedToSystem(t *testing.T, b SharedBackend) {
	st := b.fresh(t)
	now := time.Now()
	pinned := newTask("pinned", 9, now)
	pinned.System = "gpu-box"
	for _, tk := range []*task.Task{pinned, newTask("free", 0, now.Add(time.Second))} {
		if _, _, err := st.CreateTask(ctx, tk, 0); err != nil {
			t.Fatal(err)
		}
	}
	c, err := st.ClaimNext(ctx, "w1", "laptop", "r", now)
	if err != nil || c == nil || c.ID != "free" {
		t.Fatalf("laptop claimed %+v (%v), want free", c, err)
	}
	if c, _ := st.ClaimNext(ctx, "w1", "laptop", "r", now); c != nil {
		t.Errorf("laptop claimed %s, pinned elsewhere", c.ID)
	}
	if c, _ := st.ClaimNext(ctx, "w2", "gpu-box", "r", now); c == nil || c.ID != "pinned" || c.System != "gpu-box" {
		t.Errorf("gpu-box claimed %+v, want pinned", c)
	}
}

// Concurrent claimers on two handles (two workers) never claim one task
// twice, and every task is claimed.
func testClaimNextConcurrent(t *testing.T, b SharedBackend) {
	a, c := b.twin(t)
	const tasks = 60
	for i := 0; i < tasks; i++ {
		if _, _, err := a.CreateTask(ctx, newTask(fmt.Sprintf("t%02d", i), i%3, time.Now()), 0); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	seen := map[string]int{}
	var wg sync.WaitGroup
	for w := 0; w < 6; w++ {
		st := []Shared{a, c}[w%2]
		wg.Go(func() {
			for {
				got, err := st.ClaimNext(ctx, fmt.Sprint("w", w), "", "r", time.Now())
				if err != nil {
					t.Error(err)
					return
				}
				if got == nil {
					return
				}
				mu.Lock()
				seen[got.ID]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(seen) != tasks {
		t.Errorf("claimed %d distinct tasks, want %d", len(seen), tasks)
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s claimed %d times", id, n)
		}
	}
	h, _ := c.History(ctx, "t00")
	if len(h) != 2 {
		t.Errorf("t00 history: %+v", h)
	}
}

// Two workers moving one task out of the same status: exactly one wins,
// the other gets ErrConflict, and the history has one transition.
func testUpdateTaskConflicts(t *testing.T, b SharedBackend) {
	a, c := b.twin(t)
	now := time.Now()
	if _, _, err := a.CreateTask(ctx, newTask("x", 0, now), 0); err != nil {
		t.Fatal(err)
	}
	if _, err := a.ClaimNext(ctx, "w", "", "r", now); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 10)
	for i := range 10 {
		st := []Shared{a, c}[i%2]
		wg.Go(func() {
			_, err := st.UpdateTask(ctx, "x", task.Change{From: []task.Status{task.Claimed}, To: task.Running, Reason: fmt.Sprint("w", i)})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	ok := 0
	for err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, task.ErrConflict):
			t.Errorf("loser: %v, want ErrConflict", err)
		}
	}
	if ok != 1 {
		t.Errorf("%d updates won, want 1", ok)
	}
	h, _ := a.History(ctx, "x")
	if len(h) != 3 {
		t.Errorf("history %+v, want created, claimed, running", h)
	}
	// A change without a status move updates fields only.
	ref, note := "win:1", "Notification agent_needs_input: it waits for a person"
	got, err := c.UpdateTask(ctx, "x", task.Change{AgentRef: &ref, AgentNote: &note})
	if err != nil || got.AgentRef != ref || got.AgentNote != note || got.Status != task.Running {
		t.Errorf("field update: %+v %v", got, err)
	}
	if h, _ := a.History(ctx, "x"); len(h) != 3 {
		t.Errorf("a field update added a transition: %+v", h)
	}
	if _, err := a.UpdateTask(ctx, "zz", task.Change{To: task.Done}); !errors.Is(err, task.ErrNotFound) {
		t.Errorf("unknown task: %v", err)
	}
}

// A change fenced by Owner applies only while that owner holds the claim;
// NewOwner hands the claim over.
func testUpdateTaskOwnerFence(t *testing.T, b SharedBackend) {
	st := b.open(t, b.New(t))
	now := time.Now()
	if _, _, err := st.CreateTask(ctx, newTask("f", 0, now), 0); err != nil {
		t.Fatal(err)
	}
	if _, err := st.ClaimNext(ctx, "w1", "", "r", now); err != nil {
		t.Fatal(err)
	}
	if _, err := st.UpdateTask(ctx, "f", task.Change{Owner: "w2", To: task.Running}); !errors.Is(err, task.ErrConflict) {
		t.Fatalf("another owner's change: %v, want ErrConflict", err)
	}
	if got, _ := st.Task(ctx, "f"); got.Status != task.Claimed || got.Owner != "w1" {
		t.Fatalf("a refused change changed the task: %+v", got)
	}
	if got, err := st.UpdateTask(ctx, "f", task.Change{Owner: "w1", To: task.Running}); err != nil || got.Status != task.Running {
		t.Fatalf("the owner's change: %+v %v", got, err)
	}
	if got, err := st.UpdateTask(ctx, "f", task.Change{Owner: "w1", NewOwner: "w3"}); err != nil || got.Owner != "w3" {
		t.Fatalf("hand-over: %+v %v", got, err)
	}
	done := "ok"
	if _, err := st.UpdateTask(ctx, "f", task.Change{Owner: "w1", To: task.Done, Result: &done}); !errors.Is(err, task.ErrConflict) {
		t.Fatalf("the old owner's change after the hand-over: %v, want ErrConflict", err)
	}
	if got, err := st.UpdateTask(ctx, "f", task.Change{Owner: "w3", To: task.Queued, Requeue: true}); err != nil || got.Owner != "" || got.Status != task.Queued {
		t.Fatalf("requeue by the new owner: %+v %v", got, err)
	}
}

func testSchedulingDecisions(t *testing.T, b SharedBackend) {
	st := b.fresh(t)
	now := time.Now().UTC()
	for i, d := range []task.Decision{{TaskID: "", Action: "hold", Reason: "5-hour at 96%"}, {TaskID: "x", Action: "start", Reason: "slot free"}, {TaskID: "", Action: "resume", Reason: "ok"}} {
		d.Time = now.Add(time.Duration(i) * time.Second)
		if err := st.RecordDecision(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	q, _ := st.Decisions(ctx, "", 0, 0)
	x, _ := st.Decisions(ctx, "x", 0, 0)
	if len(q) != 2 || q[0].Action != "hold" || q[1].Action != "resume" || len(x) != 1 || x[0].Reason != "slot free" {
		t.Errorf("queue-wide %+v, task x %+v", q, x)
	}
	if later, _ := st.Decisions(ctx, "", q[0].ID, 0); len(later) != 1 || later[0].Action != "resume" {
		t.Errorf("after cursor: %+v", later)
	}
	if one, _ := st.Decisions(ctx, "", 0, 1); len(one) != 1 || one[0].Action != "hold" {
		t.Errorf("limit 1: %+v", one)
	}
}
