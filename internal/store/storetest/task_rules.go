package storetest

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/task"
)

// A task's own criteria and operations come back as they went in, from
// every read (one task, the list, a claim); a task without any has none.
func testTaskRules(t *testing.T, b SharedBackend) {
	st := b.fresh(t)
	now := time.Now()
	r := newTask("r1", 5, now)
	r.Criteria = []string{"committed", "run:go test ./... && echo 'ok \"quoted\"'", "the README says how"}
	r.Allow, r.Deny = []string{"push", "rebase"}, []string{"network"}
	if _, _, err := st.CreateTask(ctx, r, 0); err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.CreateTask(ctx, newTask("r2", 0, now), 0); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprint(r.Criteria, r.Allow, r.Deny)
	rules := func(x *task.Task) string { return fmt.Sprint(x.Criteria, x.Allow, x.Deny) }
	got, err := st.Task(ctx, "r1")
	if err != nil || rules(got) != want {
		t.Errorf("Task: %s %v, want %s", rules(got), err, want)
	}
	plain, err := st.Task(ctx, "r2")
	if err != nil || plain.HasRules() || plain.Criteria != nil {
		t.Errorf("a task without rules reads back with %s %v", rules(plain), err)
	}
	ts, _ := st.Tasks(ctx, task.Filter{})
	for _, x := range ts {
		if x.ID == "r1" && rules(&x) != want {
			t.Errorf("Tasks: %s", rules(&x))
		}
	}
	// An idempotency key reused with other rules is another task.
	k := newTask("r3", 0, now)
	k.IdempotencyKey, k.Allow = "rk", []string{"push"}
	if _, _, err := st.CreateTask(ctx, k, 0); err != nil {
		t.Fatal(err)
	}
	again := newTask("r4", 0, now)
	again.IdempotencyKey, again.Prompt, again.Allow = "rk", k.Prompt, []string{"push", "merge"}
	if _, _, err := st.CreateTask(ctx, again, 0); !errors.Is(err, task.ErrKeyReused) {
		t.Errorf("key reused with other operations: %v", err)
	}
	again.Allow = []string{"push"}
	if got, created, err := st.CreateTask(ctx, again, 0); err != nil || created || got.ID != "r3" {
		t.Errorf("retry with the same rules: %+v %v %v", got, created, err)
	}
	c, err := st.ClaimNext(ctx, "w1", "", "test", now)
	if err != nil || c == nil || c.ID != "r1" || rules(c) != want {
		t.Errorf("ClaimNext: %+v %v", c, err)
	}
}
