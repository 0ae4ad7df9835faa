package mcp

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/judge/llm"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// Every judge call of the chain is recorded in the store, as the hook
// judges' are: confirm's verdict, the commit message, and a judge that
// could not answer (verdict "open": not a pass).
func TestJudgeCallsRecorded(t *testing.T) {
	var slow atomic.Bool // set: the API holds its answer past the confirm deadline
	api := newFakeAPI(t, func(r apiRequest) apiReply {
		if slow.Load() {
			return apiReply{Text: "CONFIRMED", Delay: time.Minute}
		}
		if strings.Contains(r.system(), "Conventional Commits") {
			return apiReply{Text: "fix: greet the world"}
		}
		return apiReply{Text: "CONFIRMED"}
	})
	e := newEnv(t, api)
	db := filepath.Join(t.TempDir(), "warden.db")
	write(t, e.dir, "main.go", "package main\n\nfunc main() {\n\tprintln(\"hello, world\")\n}\n")
	gitOut(t, e.dir, "add", "main.go")
	cs := e.connect(t, Options{Judgements: func(ctx context.Context) (llm.JudgementStore, error) { return sqlite.Open(ctx, db) }})
	var out CommitOut
	call(t, cs, "commit", map[string]any{"skip_check": true}, &out)
	if !out.Committed {
		t.Fatalf("got %+v", out)
	}
	// The next confirm cannot be answered in time: the API holds its answer
	// well past the deadline (a deadline alone raced a fast fake on CI).
	e.cfg.MCP.ConfirmTimeoutMS = 200
	slow.Store(true)
	write(t, e.dir, "main.go", "package main\n\nfunc main() {}\n")
	var c ConfirmOut
	call(t, cs, "confirm", map[string]any{"skip_check": true}, &c)
	if c.Verdict != NotConfirmed {
		t.Fatalf("got %+v", c)
	}

	st, err := sqlite.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rows, err := st.Judgements(context.Background(), sqlite.JudgementFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, r.Judge+"/"+r.Model+"/"+r.Verdict+"/"+r.Decision)
		if r.Verdict != "open" && (r.TokensIn != 100 || r.CostUSD < 0) {
			t.Errorf("%s: tokens %d cost %v", r.Judge, r.TokensIn, r.CostUSD)
		}
	}
	want := "mcp-confirm/fake-sonnet/pass/CONFIRMED,mcp-commit-message/fake-haiku/pass/MESSAGE,mcp-confirm//open/"
	if strings.Join(got, ",") != want {
		t.Errorf("judgements %v, want %s", got, want)
	}
}
