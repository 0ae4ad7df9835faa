package storetest

import (
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/task"
)

// testRequeueRefund: a task handed back by a clean shutdown (Requeue and
// Refund) is queued with the attempt its claim counted given back; a
// plain requeue (a lost agent) keeps the count.
func testRequeueRefund(t *testing.T, b SharedBackend) {
	st := b.fresh(t)
	base := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	if _, _, err := st.CreateTask(ctx, newTask("t1", 0, base), 0); err != nil {
		t.Fatal(err)
	}
	for i, refund := range []bool{true, true, false} {
		c, err := st.ClaimNext(ctx, "w", "", "slot", base.Add(time.Duration(i)*time.Minute))
		if err != nil || c == nil || c.Attempts != 1 {
			t.Fatalf("claim %d: %+v %v; want the first attempt each time (the earlier ones refunded)", i, c, err)
		}
		if _, err := st.UpdateTask(ctx, "t1", task.Change{From: []task.Status{task.Claimed}, To: task.Queued, Time: base.Add(time.Duration(i)*time.Minute + time.Second),
			Reason: "stopped", Requeue: true, Refund: refund, Owner: "w"}); err != nil {
			t.Fatal(err)
		}
		got, _ := st.Task(ctx, "t1")
		want := 0
		if !refund {
			want = 1
		}
		if got.Status != task.Queued || got.Attempts != want || got.Owner != "" {
			t.Errorf("after requeue %d (refund %v): %s, %d attempts, owner %q; want queued, %d", i, refund, got.Status, got.Attempts, got.Owner, want)
		}
	}
}
