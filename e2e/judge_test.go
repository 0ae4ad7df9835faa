package e2e

import (
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/testenv"
)

// The LLM judges end to end: the real Claude Code CLI, warden installed by
// its installer, warden-helper (built here, found through WARDEN_JUDGE_BIN)
// using the anthropic provider pointed at the same fake Messages API, which
// answers the judge's requests through SideRules.

// buildJudge builds cmd/warden-helper into its own directory (not next to
// warden, so the other scenarios keep running without judges).
func buildJudge(t *testing.T) string {
	t.Helper()
	if skipAll != "" {
		t.Skip(skipAll)
	}
	return testenv.Binary(t, "warden-helper")
}

func TestTempoEndToEnd(t *testing.T) {
	bin := buildJudge(t)
	sc := Scenario{
		Name:   "tempo",
		Prompt: "Implement the parser and its tests.",
		Files: map[string]string{
			// The user config, next to the project in the run's HOME.
			"../home/.warden/config.toml": "[llm]\nprovider = \"anthropic\"\nmodel_sonnet = \"judge-sonnet\"\nmodel_haiku = \"judge-haiku\"\n",
		},
		Env: []string{"WARDEN_JUDGE_BIN=" + bin},
		Script: Script{
			Steps: []Step{
				{Text: "MARK-DRAFT: I implemented the parser."},
				{Text: "MARK-FINAL: I implemented the parser and added its tests; go test passes."},
			},
			SideRules: []SideRule{
				{Match: "MARK-FINAL", Text: "APPROVED"},
				{Match: "MARK-DRAFT", Text: "Let me check.\nBLOCKED: the parser tests the user asked for are missing; write them and run them."},
			},
		},
		Timeout: 120 * time.Second,
		Check: func(t *testing.T, r *Run) {
			main := r.API.MainRequests()
			if len(main) != 2 {
				t.Fatalf("%d main requests, want 2 (the first answer, then the continuation after tempo's block)", len(main))
			}
			last, _ := main[1].LastUser()
			if !strings.Contains(last.Text(), "the parser tests the user asked for are missing") {
				t.Errorf("the continuation request does not carry the judge's feedback; last user message: %q", clip(last.Text(), 400))
			}
			var judged []APIRequest
			for _, q := range r.API.Requests() {
				if q.Route == "side_rule" {
					judged = append(judged, q)
				}
			}
			if len(judged) != 2 {
				t.Fatalf("%d judge requests reached the API, want 2", len(judged))
			}
			if m, _ := judged[0].Body["model"].(string); m != "judge-sonnet" {
				t.Errorf("judge model %q, want the configured sonnet tier judge-sonnet", m)
			}
			if u, _ := judged[0].LastUser(); !strings.Contains(u.Text(), "Implement the parser and its tests.") {
				t.Errorf("the judge prompt lacks the user's prompt: %q", clip(u.Text(), 300))
			}
			var stops []EventRow
			for _, e := range r.Events(t) {
				if e.Event == "Stop" {
					stops = append(stops, e)
				}
			}
			if len(stops) != 2 || stops[0].Decision != "deny" || stops[0].Rule != "judge:tempo" || stops[1].Decision != "allow" {
				t.Errorf("Stop rows %v, want a judge:tempo deny then an allow", stops)
			}
			db, err := sql.Open("sqlite", "file:"+r.DBPath()+"?_pragma=busy_timeout(5000)")
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			rows, err := db.Query(`SELECT judge, provider, model, verdict, tokens_in, cost_usd FROM judgements ORDER BY id`)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var got []string
			for rows.Next() {
				var judge, provider, model, verdict string
				var in int64
				var cost float64
				rows.Scan(&judge, &provider, &model, &verdict, &in, &cost)
				if in <= 0 || cost <= 0 {
					t.Errorf("judgement %s/%s: tokens %d cost %v, want both recorded", judge, verdict, in, cost)
				}
				got = append(got, judge+"/"+provider+"/"+model+"/"+verdict)
			}
			if want := "tempo/anthropic/judge-sonnet/fail,tempo/anthropic/judge-sonnet/pass"; strings.Join(got, ",") != want {
				t.Errorf("judgements %v, want %s", got, want)
			}
		},
	}
	r := runScenario(t, sc)
	sc.Check(t, r)
}
