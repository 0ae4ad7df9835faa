package storetest

import (
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

// testTokenScopes: a token keeps its scope and expiry; one stored without
// a scope reads as admin; a row written before scopes existed (only the
// columns of migration 0011) reads as admin and never expiring, the
// access it had.
func testTokenScopes(t *testing.T, b SharedBackend) {
	st := b.fresh(t)
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	exp := now.Add(30 * 24 * time.Hour)
	toks := []store.APIToken{
		{ID: "r", Name: "grafana", Hash: "h-read", Created: now, Scope: store.ScopeRead, Expires: &exp},
		{ID: "w", Name: "alerts", Hash: "h-webhook", Created: now.Add(time.Second), Scope: "webhook:alertmanager"},
		{ID: "n", Name: "unscoped", Hash: "h-none", Created: now.Add(2 * time.Second)},
	}
	for i := range toks {
		if err := st.AddToken(ctx, &toks[i]); err != nil {
			t.Fatal(err)
		}
	}
	b.Exec(t, st, "INSERT INTO api_tokens (id, name, hash, created_us) VALUES ('old', 'before scopes', 'h-old', 1)")

	got, err := st.TokenByHash(ctx, "h-read")
	if err != nil || got == nil || got.Scope != store.ScopeRead || got.Expires == nil || !got.Expires.Equal(exp) {
		t.Fatalf("read token: %+v %v", got, err)
	}
	if got.Allows(store.ScopeTasks) || !got.Allows(store.ScopeRead) || got.Expired(now) || !got.Expired(exp) {
		t.Errorf("read token allows tasks %v, read %v; expired now %v, at expiry %v", got.Allows(store.ScopeTasks), got.Allows(store.ScopeRead), got.Expired(now), got.Expired(exp))
	}
	for hash, want := range map[string]string{"h-webhook": "webhook:alertmanager", "h-none": store.ScopeAdmin, "h-old": store.ScopeAdmin} {
		got, err := st.TokenByHash(ctx, hash)
		if err != nil || got == nil || got.Scope != want || got.Expires != nil {
			t.Errorf("%s: %+v %v; want scope %s, no expiry", hash, got, err, want)
		}
	}
	all, err := st.Tokens(ctx)
	if err != nil || len(all) != 4 || all[0].ID != "old" || all[0].Scope != store.ScopeAdmin || all[1].Expires == nil || all[2].Scope != "webhook:alertmanager" {
		t.Errorf("listed: %+v %v", all, err)
	}
}

// testDeliveryRetention: a recorded delivery is found with its task;
// pruning forgets those recorded before the cut and keeps the rest.
func testDeliveryRetention(t *testing.T, b SharedBackend) {
	st := b.fresh(t)
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	for i, id := range []string{"old", "new"} {
		if first, err := st.ClaimDelivery(ctx, "github", id, now.Add(time.Duration(i)*48*time.Hour)); !first || err != nil {
			t.Fatal(first, err)
		}
	}
	if err := st.SetDeliveryTask(ctx, "github", "new", "t1"); err != nil {
		t.Fatal(err)
	}
	if task, seen, err := st.DeliveryTask(ctx, "github", "new"); task != "t1" || !seen || err != nil {
		t.Errorf("new: %q %v %v", task, seen, err)
	}
	if task, seen, err := st.DeliveryTask(ctx, "telegram", "new"); task != "" || seen || err != nil {
		t.Errorf("other source: %q %v %v", task, seen, err)
	}
	if n, err := st.PruneDeliveries(ctx, now.Add(24*time.Hour)); n != 1 || err != nil {
		t.Errorf("pruned %d %v; want 1", n, err)
	}
	if _, seen, _ := st.DeliveryTask(ctx, "github", "old"); seen {
		t.Error("a pruned delivery is still known")
	}
	if _, seen, _ := st.DeliveryTask(ctx, "github", "new"); !seen {
		t.Error("a delivery inside the window was pruned")
	}
}
