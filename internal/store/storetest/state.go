package storetest

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/warden-dev/warden/internal/store"
)

func testSessions(t *testing.T, b LocalBackend) {
	st := b.fresh(t)
	if s, err := st.Session(ctx, "nope"); s != nil || err != nil {
		t.Errorf("unknown session: %v %v", s, err)
	}
	if err := st.RecordHook(ctx, &store.Event{Event: "SessionStart", SessionID: "s"},
		&store.Session{ID: "s", Cwd: "/p", State: []byte(`{"a":1}`), Sig: "sig1"}); err != nil {
		t.Fatal(err)
	}
	first, _ := st.Session(ctx, "s")
	// A later save without a cwd keeps the one known.
	if err := st.RecordHook(ctx, &store.Event{Event: "Stop", SessionID: "s"}, &store.Session{ID: "s", State: []byte(`{"a":2}`), Sig: "sig2"}); err != nil {
		t.Fatal(err)
	}
	s, err := st.Session(ctx, "s")
	if err != nil || s == nil || string(s.State) != `{"a":2}` || s.Cwd != "/p" || s.Sig != "sig2" {
		t.Fatalf("session: %+v %v", s, err)
	}
	if !s.Started.Equal(first.Started) || s.Updated.Before(first.Updated) {
		t.Errorf("started %v → %v, updated %v → %v", first.Started, s.Started, first.Updated, s.Updated)
	}
	// SaveSession alone; an empty state is stored as {}.
	if err := st.SaveSession(ctx, &store.Session{ID: "t", Cwd: "/q"}); err != nil {
		t.Fatal(err)
	}
	if s, _ := st.Session(ctx, "t"); s == nil || string(s.State) != "{}" || s.Cwd != "/q" {
		t.Errorf("saved alone: %+v", s)
	}
	// A nil session or one without an id saves nothing.
	if err := st.SaveSession(ctx, &store.Session{}); err != nil {
		t.Fatal(err)
	}
	if err := st.RecordHook(ctx, &store.Event{Event: "Stop"}, nil); err != nil {
		t.Fatal(err)
	}
	if ss, _ := st.SessionsPage(ctx, 10); len(ss) != 2 {
		t.Errorf("%d sessions, want 2", len(ss))
	}
}

func testSettings(t *testing.T, b LocalBackend) {
	st := b.fresh(t)
	if _, ok, err := st.Setting(ctx, "k"); ok || err != nil {
		t.Errorf("unset setting found (%v)", err)
	}
	st.SetSetting(ctx, "k", "v1")
	st.SetSetting(ctx, "k", "v2")
	if v, ok, _ := st.Setting(ctx, "k"); !ok || v != "v2" {
		t.Errorf("setting %q %v", v, ok)
	}
	if err := st.SetSetting(ctx, "empty", ""); err != nil {
		t.Fatal(err)
	}
	if v, ok, _ := st.Setting(ctx, "empty"); !ok || v != "" {
		t.Errorf("an empty value is a value: %q %v", v, ok)
	}
	if err := st.DeleteSetting(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteSetting(ctx, "never-set"); err != nil {
		t.Errorf("deleting an absent key: %v", err)
	}
	if _, ok, _ := st.Setting(ctx, "k"); ok {
		t.Error("DeleteSetting left the key")
	}
	if err := st.Check(ctx); err != nil {
		t.Errorf("Check of a fresh store: %v", err)
	}
}

// Of callers racing to claim one key, on two handles, exactly one wins; an
// emptied key can be claimed again, a deleted one too.
func testClaimSettingHasOneWinner(t *testing.T, b LocalBackend) {
	a, c := b.twin(t)
	var wins atomic.Int32
	var wg sync.WaitGroup
	for i := range 16 {
		st := []Local{a, c}[i%2]
		wg.Go(func() {
			ok, err := st.ClaimSetting(ctx, "k", fmt.Sprint("v", i))
			if err != nil {
				t.Error(err)
			}
			if ok {
				wins.Add(1)
			}
		})
	}
	wg.Wait()
	if wins.Load() != 1 {
		t.Fatalf("%d winners, want 1", wins.Load())
	}
	if ok, _ := a.ClaimSetting(ctx, "k", "again"); ok {
		t.Error("claimed a key that is set")
	}
	if err := a.SetSetting(ctx, "k", ""); err != nil {
		t.Fatal(err)
	}
	if ok, _ := c.ClaimSetting(ctx, "k", "again"); !ok {
		t.Error("could not claim an emptied key")
	}
	if err := a.DeleteSetting(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if ok, _ := c.ClaimSetting(ctx, "k", "third"); !ok {
		t.Error("could not claim a deleted key")
	}
}
