package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/hookwire/settle"
	"github.com/warden-dev/warden/internal/pace/quota"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// Real Codex against the scripted model, which sends Codex's rate-limit
// headers: Codex records them in its rollout, warden's PostToolUse hook
// (installed by `warden install --harness codex`) stores them as Codex
// figures of that session, and `warden pace --harness codex` decides from
// exactly those figures. Gemini and Copilot expose no quota: pace says so.
func TestCodexPacingFromRollout(t *testing.T) {
	c := otherCLIs[0]
	if c.harness != "codex" {
		t.Fatal("otherCLIs[0] is not Codex")
	}
	bin := c.tool.Require(t)
	w := newCLIHome(t, c)
	// Figures well behind pace, with resets in the windows' future (the
	// hook runs on the real clock): no delay, so the run stays quick.
	reset5, reset7 := time.Now().Add(270*time.Minute).Unix(), time.Now().Add(6*24*time.Hour).Unix()
	api := &fakeModels{Command: "echo one >> f", Then: []string{"echo two >> f"}, FinalText: "All done.",
		CodexHeaders: map[string]string{
			"x-codex-primary-used-percent": "2.5", "x-codex-primary-window-minutes": "300", "x-codex-primary-reset-at": fmt.Sprint(reset5),
			"x-codex-secondary-used-percent": "1", "x-codex-secondary-window-minutes": "10080", "x-codex-secondary-reset-at": fmt.Sprint(reset7),
		}}
	w.runAPI(t, c, bin, api)

	// The hook of the second tool call saw the first answer's limits.
	settle.Wait(filepath.Join(w.home, ".warden"), 10*time.Second) // the hook server records after it answers
	st, err := sqlite.Open(context.Background(), filepath.Join(w.home, ".warden", "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	snap, err := st.LatestSnapshot(context.Background(), quota.SourceCodex)
	st.Close()
	if err != nil || snap == nil {
		t.Fatalf("no Codex figures stored by the hook: %v %v", snap, err)
	}
	var session string
	for _, e := range w.log(t, "codex") {
		if e.Event == "PostToolUse" {
			session = e.SessionID
		}
	}
	if snap.SessionID == "" || snap.SessionID != session || *snap.FiveHour.Util != 2.5 || snap.FiveHour.ResetsAt.Unix() != reset5 ||
		*snap.SevenDay.Util != 1 || snap.SevenDay.ResetsAt.Unix() != reset7 {
		t.Errorf("stored %+v (session %q, Codex's %q)", snap, snap.SessionID, session)
	}

	warden := filepath.Join(w.home, ".warden", "bin", "warden")
	out, err := runBin(warden, w.env, w.proj, "pace", "--harness", "codex", "--json")
	if err != nil {
		t.Fatalf("warden pace --harness codex: %v\n%s", err, out)
	}
	var rec struct {
		Figures      *quota.Snapshot `json:"figures"`
		Note         string          `json:"note"`
		DelaySeconds int             `json:"delay_seconds"`
	}
	if err := json.Unmarshal([]byte(out), &rec); err != nil || rec.Figures == nil {
		t.Fatalf("pace --json: %v\n%s", err, out)
	}
	if rec.Figures.Source != quota.SourceCodex || *rec.Figures.FiveHour.Util != 2.5 || *rec.Figures.SevenDay.Util != 1 ||
		rec.Note != "" || rec.DelaySeconds != 0 {
		t.Errorf("decided %+v from %+v", rec, rec.Figures)
	}
	text, err := runBin(warden, w.env, w.proj, "pace", "--harness", "codex")
	if err != nil || !strings.Contains(text, "5-hour: 2.5% used") || !strings.Contains(text, "7-day: 1.0% used") {
		t.Errorf("pace --harness codex: %v\n%s", err, text)
	}
	for _, h := range []string{"gemini", "copilot"} {
		out, err := runBin(warden, w.env, w.proj, "pace", "--harness", h)
		if err != nil || !strings.Contains(out, "exposes no quota") {
			t.Errorf("pace --harness %s: %v\n%s", h, err, out)
		}
	}
}
