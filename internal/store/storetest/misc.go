package storetest

import (
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

func testTokensAndDeliveries(t *testing.T, b SharedBackend) {
	st := b.fresh(t)
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	tok, hash := store.NewAPIToken()
	for i, tk := range []store.APIToken{{ID: "t1", Name: "cli", Hash: hash, Created: now}, {ID: "t2", Name: "ci", Hash: "other", Created: now.Add(time.Second)}} {
		if err := st.AddToken(ctx, &tk); err != nil {
			t.Fatalf("token %d: %v", i, err)
		}
	}
	if err := st.AddToken(ctx, &store.APIToken{ID: "t3", Name: "dup", Hash: hash, Created: now}); err == nil {
		t.Error("a second token with the same hash was stored")
	}
	got, err := st.TokenByHash(ctx, store.HashAPIToken(tok))
	if err != nil || got == nil || got.ID != "t1" || got.LastUsed != nil || !got.Created.Equal(now) {
		t.Fatalf("by hash: %+v %v", got, err)
	}
	if err := st.TouchToken(ctx, "t1", now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if n, err := st.RevokeToken(ctx, "ci", now.Add(2*time.Hour)); err != nil || n != 1 {
		t.Errorf("revoke by name: %d %v", n, err)
	}
	if n, _ := st.RevokeToken(ctx, "t2", now.Add(3*time.Hour)); n != 0 {
		t.Errorf("revoked twice: %d", n)
	}
	if got, _ := st.TokenByHash(ctx, "other"); got != nil {
		t.Errorf("a revoked token is found: %+v", got)
	}
	all, _ := st.Tokens(ctx)
	if len(all) != 2 || all[0].LastUsed == nil || !all[0].LastUsed.Equal(now.Add(time.Hour)) || all[1].Revoked == nil || all[0].Revoked != nil {
		t.Errorf("tokens %+v", all)
	}

	first, err := st.ClaimDelivery(ctx, "github", "d-1", now)
	again, err2 := st.ClaimDelivery(ctx, "github", "d-1", now)
	other, err3 := st.ClaimDelivery(ctx, "telegram", "d-1", now)
	if !first || again || !other || err != nil || err2 != nil || err3 != nil {
		t.Errorf("deliveries: first %v again %v other source %v (%v %v %v)", first, again, other, err, err2, err3)
	}
	if err := st.SetDeliveryTask(ctx, "github", "d-1", "task-9"); err != nil {
		t.Error(err)
	}
}

func testAgents(t *testing.T, b LocalBackend) {
	st := b.fresh(t)
	start := time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC)
	if a, err := st.Agent(ctx, "none"); a != nil || err != nil {
		t.Errorf("unknown agent: %+v %v", a, err)
	}
	for i, id := range []string{"t1", "t2"} {
		a := &store.Agent{TaskID: id, Project: "/p", Worktree: "/wt/" + id, Branch: "warden/" + id, Base: "main", Mode: "auto",
			Window: "w:" + id, Criteria: []string{"tests pass", "lint"}, State: "starting", Reason: "spawned", Started: start.Add(time.Duration(i) * time.Minute),
			MemoryCgroup: "/sys/fs/cgroup/warden-agents/" + id}
		if err := st.InsertAgent(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.InsertAgent(ctx, &store.Agent{TaskID: "t1", Project: "/p", Worktree: "x", Branch: "x", State: "starting"}); err == nil {
		t.Error("a second agent for one task was stored")
	}
	a, err := st.Agent(ctx, "t1")
	if err != nil || a == nil || a.Window != "w:t1" || a.MemoryCgroup != "/sys/fs/cgroup/warden-agents/t1" || fmt.Sprint(a.Criteria) != "[tests pass lint]" || !a.Started.Equal(start) || !a.Ended.IsZero() {
		t.Fatalf("agent: %+v %v", a, err)
	}
	a.State, a.LastEventID, a.LastEvent, a.Ended, a.MemoryCgroup = "done", 42, start.Add(time.Hour), start.Add(2*time.Hour), ""
	a.Pending, a.Tail, a.PermissionMode = `{"tool":"Bash"}`, "line 1\nError: boom", "bypassPermissions"
	if err := st.UpdateAgent(ctx, a, &store.AgentState{State: "done", At: start.Add(2 * time.Hour), Reason: "criteria met"}); err != nil {
		t.Fatal(err)
	}
	a2, _ := st.Agent(ctx, "t1")
	if a2.State != "done" || a2.LastEventID != 42 || a2.MemoryCgroup != "" || a2.Pending != `{"tool":"Bash"}` || a2.Tail != "line 1\nError: boom" || a2.PermissionMode != "bypassPermissions" || !a2.LastEvent.Equal(start.Add(time.Hour)) || !a2.Ended.Equal(start.Add(2*time.Hour)) {
		t.Errorf("updated agent: %+v", a2)
	}
	states, _ := st.AgentStates(ctx, "t1")
	if len(states) != 2 || states[0].State != "starting" || states[1].Reason != "criteria met" {
		t.Errorf("states %+v", states)
	}
	if err := st.UpdateAgent(ctx, &store.Agent{TaskID: "ghost"}, nil); err == nil {
		t.Error("updating an unknown agent succeeded")
	}
	a2.Cleaned = start.Add(3 * time.Hour)
	if err := st.UpdateAgent(ctx, a2, nil); err != nil {
		t.Fatal(err)
	}
	active, _ := st.Agents(ctx, false)
	every, _ := st.Agents(ctx, true)
	if len(active) != 1 || active[0].TaskID != "t2" || len(every) != 2 || every[0].TaskID != "t1" {
		t.Errorf("active %d, all %d", len(active), len(every))
	}
}

func testJudgements(t *testing.T, b LocalBackend) {
	st := b.fresh(t)
	base := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	for i := range 5 {
		j := &store.Judgement{Time: base.Add(time.Duration(i) * time.Minute), SessionID: []string{"a", "b"}[i%2],
			Judge: []string{"tempo", "tool-approve"}[i%2], Provider: "anthropic", Model: "m", TokensIn: 100, TokensOut: int64(i),
			CostUSD: 0.25 * float64(i), LatencyMS: 30, Attempts: 1, Verdict: "pass", Decision: "APPROVED", Reason: "r", Lazy: i == 3}
		if err := st.RecordJudgementRow(ctx, j); err != nil || j.ID == 0 {
			t.Fatalf("judgement %d: id %d %v", i, j.ID, err)
		}
	}
	all, err := st.Judgements(ctx, store.JudgementFilter{})
	if err != nil || len(all) != 5 || all[0].TokensOut != 0 || all[4].CostUSD != 1 || !all[3].Lazy || all[2].Lazy || !all[1].Time.Equal(base.Add(time.Minute)) {
		t.Fatalf("all: %+v %v", all, err)
	}
	if got, _ := st.Judgements(ctx, store.JudgementFilter{SessionID: "b"}); len(got) != 2 || got[0].Judge != "tool-approve" {
		t.Errorf("session b: %+v", got)
	}
	if got, _ := st.Judgements(ctx, store.JudgementFilter{Judge: "tempo", Since: base.Add(90 * time.Second)}); len(got) != 2 {
		t.Errorf("tempo since 1m30: %d", len(got))
	}
	if got, _ := st.Judgements(ctx, store.JudgementFilter{Limit: 2}); len(got) != 2 || got[1].TokensOut != 4 {
		t.Errorf("newest 2, oldest first: %+v", got)
	}
}

func testPendingVerdicts(t *testing.T, b LocalBackend) {
	st := b.fresh(t)
	now := time.Now()
	if p, err := st.Pending(ctx, 999); p != nil || err != nil {
		t.Errorf("unknown pending: %+v %v", p, err)
	}
	var ids []int64
	for i := range 3 {
		p := &store.PendingVerdict{SessionID: "s", Judge: "tool-approve", Tool: "Bash", Target: fmt.Sprint("cmd", i), Request: []byte(`{"q":1}`), Created: now}
		id, err := st.AddPending(ctx, p)
		if err != nil || id == 0 || p.State != "pending" {
			t.Fatalf("add: %d %v %+v", id, err, p)
		}
		ids = append(ids, id)
	}
	old := &store.PendingVerdict{SessionID: "s", Judge: "j", Request: []byte(`{}`), Created: now.Add(-time.Hour)}
	st.AddPending(ctx, old)
	st.FinishPending(ctx, old.ID, "failed", "stale")
	st.FinishPending(ctx, ids[0], "passed", "")
	st.FinishPending(ctx, ids[1], "failed", "bad idea")
	st.FinishPending(ctx, ids[2], "failed", "also bad")
	// Only a pending row changes.
	st.FinishPending(ctx, ids[1], "passed", "changed my mind")
	p, _ := st.Pending(ctx, ids[1])
	if p == nil || p.State != "failed" || p.Reason != "bad idea" || p.Done.IsZero() || string(p.Request) != `{"q":1}` {
		t.Fatalf("pending: %+v", p)
	}
	var took []string
	for range 3 {
		v, err := st.TakeFailedVerdict(ctx, "s", now.Add(-time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		if v == nil {
			break
		}
		if v.State != "delivered" {
			t.Errorf("taken verdict state %q", v.State)
		}
		took = append(took, v.Reason)
	}
	sort.Strings(took)
	if fmt.Sprint(took) != "[also bad bad idea]" {
		t.Errorf("taken %v: each failed verdict once, the stale one deleted", took)
	}
	if p, _ := st.Pending(ctx, old.ID); p != nil {
		t.Errorf("a verdict older than since survived: %+v", p)
	}
}

func testUsageCache(t *testing.T, b LocalBackend) {
	st := b.fresh(t)
	files := []store.UsageFile{
		{Path: "/t/a.jsonl", Size: 10, MtimeNs: 1, Offset: 8, Prefix: []byte{1, 2}, Data: []byte("aa")},
		{Path: "/t/b.jsonl", Size: 20, MtimeNs: 2, Offset: 20, Data: []byte{}},
		{Path: "/t/c.jsonl", Size: 30, MtimeNs: 3, Offset: 0, Data: []byte("cc")},
	}
	if err := st.SaveUsage(ctx, files, nil, []store.UsageSnapshot{{Name: "blocks", Fingerprint: []byte("fp1"), Data: []byte("d1")}}); err != nil {
		t.Fatal(err)
	}
	// Update one, remove one, in one call.
	files[0].Size, files[0].Data = 11, []byte("aaa")
	if err := st.SaveUsageFiles(ctx, files[:1], []string{"/t/c.jsonl", "/t/never"}); err != nil {
		t.Fatal(err)
	}
	all, err := st.UsageFiles(ctx)
	if err != nil || len(all) != 2 {
		t.Fatalf("files %+v %v", all, err)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Path < all[j].Path })
	if all[0].Size != 11 || string(all[0].Data) != "aaa" || string(all[0].Prefix) != "\x01\x02" || all[0].Offset != 8 || len(all[1].Prefix) != 0 {
		t.Errorf("files %+v", all)
	}
	some, _ := st.UsageFilesByPath(ctx, []string{"/t/b.jsonl", "/t/c.jsonl", "/t/zz"})
	if len(some) != 1 || some[0].Path != "/t/b.jsonl" || some[0].MtimeNs != 2 {
		t.Errorf("by path: %+v", some)
	}
	if err := st.SaveUsageSnapshot(ctx, "blocks", []byte("fp2"), []byte("d2")); err != nil {
		t.Fatal(err)
	}
	fpr, data, ok, err := st.UsageSnapshot(ctx, "blocks")
	if err != nil || !ok || string(fpr) != "fp2" || string(data) != "d2" {
		t.Errorf("snapshot %q %q %v %v", fpr, data, ok, err)
	}
	if _, _, ok, err := st.UsageSnapshot(ctx, "daily"); ok || err != nil {
		t.Errorf("unknown snapshot: %v %v", ok, err)
	}
	if err := st.ClearUsageFiles(ctx); err != nil {
		t.Fatal(err)
	}
	all, _ = st.UsageFiles(ctx)
	_, _, ok, _ = st.UsageSnapshot(ctx, "blocks")
	if len(all) != 0 || ok {
		t.Errorf("after clear: %d files, snapshot %v", len(all), ok)
	}
}

// The pool's registry: a heartbeat inserts or replaces a worker's row,
// two handles (two workers) see each other's, a clean stop removes one.
func testSystems(t *testing.T, b SharedBackend) {
	a, c := b.twin(t)
	start := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	if got, err := a.Systems(ctx); err != nil || len(got) != 0 {
		t.Fatalf("no workers yet: %+v %v", got, err)
	}
	w1 := store.System{Owner: "box-a:10", Name: "box-a", Host: "a.example", PID: 10, Version: "v1", Agents: 1, MaxAgents: 4,
		Load1: 0.5, Started: start, Heartbeat: start.Add(time.Second)}
	w2 := store.System{Owner: "box-b:20", Name: "gpu", Host: "b.example", PID: 20, MaxAgents: 2, Started: start, Heartbeat: start}
	if err := a.BeatSystem(ctx, w1); err != nil {
		t.Fatal(err)
	}
	if err := c.BeatSystem(ctx, w2); err != nil {
		t.Fatal(err)
	}
	w1.Agents, w1.Load1, w1.Heartbeat = 3, 1.25, start.Add(10*time.Second)
	if err := a.BeatSystem(ctx, w1); err != nil {
		t.Fatal(err)
	}
	got, err := c.Systems(ctx)
	if err != nil || len(got) != 2 {
		t.Fatalf("systems %+v %v", got, err)
	}
	if got[0] != w1 || got[1] != w2 {
		t.Errorf("systems:\n got %+v\nwant %+v, %+v", got, w1, w2)
	}
	if err := c.LeaveSystem(ctx, "box-a:10"); err != nil {
		t.Fatal(err)
	}
	if err := c.LeaveSystem(ctx, "never"); err != nil {
		t.Errorf("leaving twice: %v", err)
	}
	if got, _ := a.Systems(ctx); len(got) != 1 || got[0].Owner != "box-b:20" {
		t.Errorf("after leave: %+v", got)
	}
}
