package e2e

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// usageJSON is the part of `warden usage session|daily --json` compared.
type usageJSON struct {
	Sessions []struct {
		SessionID   string   `json:"sessionId"`
		ProjectPath string   `json:"projectPath"`
		ModelsUsed  []string `json:"modelsUsed"`
		TotalTokens int64    `json:"totalTokens"`
	} `json:"sessions"`
	Daily []struct {
		Date        string `json:"date"`
		TotalTokens int64  `json:"totalTokens"`
	} `json:"daily"`
	Totals struct {
		InputTokens         int64    `json:"inputTokens"`
		OutputTokens        int64    `json:"outputTokens"`
		CacheReadTokens     int64    `json:"cacheReadTokens"`
		CacheCreationTokens int64    `json:"cacheCreationTokens"`
		TotalTokens         int64    `json:"totalTokens"`
		TotalCost           float64  `json:"totalCost"`
		UnpricedModels      []string `json:"unpricedModels"`
	} `json:"totals"`
}

// For each real CLI, two sessions against the scripted model (two tool
// calls, then three calls in all): `warden usage session|daily --harness
// NAME --json` read the transcripts the CLI wrote and add up to exactly
// the usage the model reported (input less its cached part, cached,
// output), per session and in total.
func TestOtherCLIsUsageReports(t *testing.T) {
	for _, c := range otherCLIs {
		t.Run(c.harness, func(t *testing.T) {
			bin := c.tool.Require(t)
			w := newCLIHome(t, c)
			var in, cached, out int64
			perSession := []int64{}
			for range 2 {
				api := w.runScript(t, c, bin, "echo one >> f", "echo two >> f")
				var total int64
				for _, u := range api.Usages() {
					in += u.In - u.Cached
					cached += u.Cached
					out += u.Out
					total += u.In + u.Out
				}
				if n := len(api.Usages()); n != 3 {
					t.Fatalf("the model answered %d times, want 3 (two tool calls, then text)", n)
				}
				perSession = append(perSession, total)
			}

			var sess, daily usageJSON
			w.usage(t, &sess, "session", "--harness", c.harness, "--json", "--timezone", "UTC")
			w.usage(t, &daily, "daily", "--harness", c.harness, "--json", "--timezone", "UTC")
			for _, r := range []usageJSON{sess, daily} {
				tt := r.Totals
				if tt.InputTokens != in || tt.CacheReadTokens != cached || tt.OutputTokens != out || tt.CacheCreationTokens != 0 ||
					tt.TotalTokens != in+cached+out {
					t.Errorf("totals %+v; the model reported input %d (less cached), cached %d, output %d", tt, in, cached, out)
				}
				if tt.TotalCost <= 0 || len(tt.UnpricedModels) != 0 {
					t.Errorf("cost %v, unpriced %v: the pinned models are priced", tt.TotalCost, tt.UnpricedModels)
				}
			}
			if len(sess.Sessions) != 2 {
				t.Fatalf("sessions %+v, want 2", sess.Sessions)
			}
			for _, s := range sess.Sessions {
				if s.SessionID == "" || s.ProjectPath != w.proj || len(s.ModelsUsed) != 1 ||
					(s.TotalTokens != perSession[0] && s.TotalTokens != perSession[1]) {
					t.Errorf("session %+v (project %s, session totals %v)", s, w.proj, perSession)
				}
			}
			if len(daily.Daily) == 0 {
				t.Errorf("no daily rows")
			}
		})
	}
}

// runScript has the CLI's model ask for the commands one after another.
func (w *cliHome) runScript(t *testing.T, c otherCLI, bin string, commands ...string) *fakeModels {
	t.Helper()
	return w.runAPI(t, c, bin, &fakeModels{Command: commands[0], Then: commands[1:], FinalText: "All done."})
}

// usage runs `warden usage ARGS` and decodes its JSON into v.
func (w *cliHome) usage(t *testing.T, v any, args ...string) {
	t.Helper()
	warden := filepath.Join(w.home, ".warden", "bin", "warden")
	out, err := runBin(warden, w.env, w.proj, append([]string{"usage"}, args...)...)
	if err != nil {
		t.Fatalf("warden usage %v: %v\n%s", args, err, out)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("warden usage %v: %v\n%s", args, err, out)
	}
}
