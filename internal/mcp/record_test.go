package mcp

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/judge/llm"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// Every judge call of the chain is recorded in the store, as the hook
// judges' are: confirm's verdict, the commit message, and a judge that
// could not answer (verdict "open": not a pass).
func TestJudgeCallsRecorded(t *testing.T) {
	api := commitAPI(t, "CONFIRMED", "fix: greet the world")
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
	e.cfg.MCP.ConfirmTimeoutMS = 1 // the next confirm cannot be answered in time
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
