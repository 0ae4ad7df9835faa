package sqlite

import (
	"context"
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

func TestTaskQueueOrderClaimAndHistory(t *testing.T) {
	st, ctx := open(t), context.Background()
	base := time.Date(2026, 11, 26, 1, 0, 0, 0, time.UTC)
	for i, tc := range []struct {
		id  string
		pri int
	}{{"a", 0}, {"b", 5}, {"c", 0}, {"d", 5}} {
		if _, created, err := st.CreateTask(ctx, newTask(tc.id, tc.pri, base.Add(time.Duration(i)*time.Second)), 0); err != nil || !created {
			t.Fatalf("create %s: %v %v", tc.id, created, err)
		}
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
	if err != nil || done.Status != task.Done || done.Result != "ok" || done.FinishedAt == nil {
		t.Fatalf("done: %+v %v", done, err)
	}
	// A finished task does not move again, and nothing changed.
	if _, err := st.UpdateTask(ctx, "b", task.Change{From: []task.Status{task.Queued, task.Running}, To: task.Cancelled, Reason: "x"}); !errors.Is(err, task.ErrConflict) {
		t.Errorf("cancel of a done task: %v, want ErrConflict", err)
	}
	if _, err := st.UpdateTask(ctx, "zz", task.Change{To: task.Done}); !errors.Is(err, task.ErrNotFound) {
		t.Errorf("unknown task: %v", err)
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
	// Requeue clears the claim.
	rq, err := st.UpdateTask(ctx, "a", task.Change{From: []task.Status{task.Claimed}, To: task.Queued, Reason: "lost", Requeue: true})
	if err != nil || rq.Owner != "" || rq.ClaimedAt != nil || rq.Attempts != 1 {
		t.Errorf("requeued %+v %v", rq, err)
	}
	counts, _ := st.CountTasks(ctx)
	if counts[task.Queued] != 1 || counts[task.Claimed] != 2 || counts[task.Done] != 1 {
		t.Errorf("counts %v", counts)
	}
}

func TestTaskIdempotencyAndQueueLimit(t *testing.T) {
	st, ctx := open(t), context.Background()
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
}

// Concurrent claimers (the API and scheduler share one store; several
// connections here) never claim one task twice.
func TestClaimNextConcurrent(t *testing.T) {
	st, ctx := open(t), context.Background()
	st.SetMaxOpenConns(4)
	for i := 0; i < 40; i++ {
		if _, _, err := st.CreateTask(ctx, newTask(fmt.Sprintf("t%02d", i), 0, time.Now()), 0); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	seen := map[string]int{}
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				c, err := st.ClaimNext(ctx, "w", "", "r", time.Now())
				if err != nil {
					t.Error(err)
					return
				}
				if c == nil {
					return
				}
				mu.Lock()
				seen[c.ID]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(seen) != 40 {
		t.Errorf("claimed %d distinct tasks, want 40", len(seen))
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s claimed %d times", id, n)
		}
	}
}

func TestDecisionsAndTokens(t *testing.T) {
	st, ctx := open(t), context.Background()
	now := time.Now().UTC()
	for i, d := range []task.Decision{{TaskID: "", Action: "hold", Reason: "5-hour at 96%"}, {TaskID: "x", Action: "start", Reason: "slot free"}, {TaskID: "", Action: "resume", Reason: "ok"}} {
		d.Time = now.Add(time.Duration(i) * time.Second)
		if err := st.RecordDecision(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	q, _ := st.Decisions(ctx, "", 0, 0)
	x, _ := st.Decisions(ctx, "x", 0, 0)
	if len(q) != 2 || q[0].Action != "hold" || q[1].Action != "resume" || len(x) != 1 {
		t.Errorf("queue-wide %+v, task x %+v", q, x)
	}
	if later, _ := st.Decisions(ctx, "", q[0].ID, 0); len(later) != 1 || later[0].Action != "resume" {
		t.Errorf("after cursor: %+v", later)
	}

	first, err := st.ClaimDelivery(ctx, "github", "d-1", now)
	again, err2 := st.ClaimDelivery(ctx, "github", "d-1", now)
	other, err3 := st.ClaimDelivery(ctx, "telegram", "d-1", now)
	if !first || again || !other || err != nil || err2 != nil || err3 != nil {
		t.Errorf("deliveries: first %v again %v other source %v (%v %v %v)", first, again, other, err, err2, err3)
	}
}
