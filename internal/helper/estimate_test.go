package helper_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/testenv"
)

// writeTranscript writes a session with entries every 10 minutes in blocks
// (start hours after base, length in hours, cost per entry).
func writeTranscript(t *testing.T, configDir string, base time.Time, blocks [][3]float64) {
	t.Helper()
	p := filepath.Join(configDir, "projects", "-work-p")
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	n := 0
	for _, bl := range blocks {
		start := base.Add(time.Duration(bl[0] * float64(time.Hour)))
		for m := 0.0; m < bl[1]*60; m += 10 {
			n++
			fmt.Fprintf(&b, `{"type":"assistant","sessionId":"s1","requestId":"req_%d","timestamp":%q,"version":"2.1.330","costUSD":%g,"message":{"id":"msg_%d","model":"claude-sonnet-4-5","usage":{"input_tokens":100,"output_tokens":50}}}`+"\n",
				n, start.Add(time.Duration(m)*time.Minute).Format(time.RFC3339Nano), bl[2], n)
		}
	}
	if err := os.WriteFile(filepath.Join(p, "s1.jsonl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestEstimateWhenTheTokenIsRefused is quota source 3 end to end, on the
// built binaries: a subscriber whose OAuth token the endpoint (an httptest
// server) refuses with 401 and who has no status-line figures gets a
// 5-hour figure estimated from the transcripts by `warden pace poll`, and
// `warden pace` and `warden status` say it is estimated. An API-key user
// (no token) with the same transcripts gets no estimate: "no subscription
// limits known".
func TestEstimateWhenTheTokenIsRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two binaries")
	}
	dir := testenv.Binaries(t, "warden", "warden-helper")
	var hits int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits++
		http.Error(w, `{"error":"token expired"}`, http.StatusUnauthorized)
	}))
	defer srv.Close()

	// Three completed blocks ($3.00, $6.00, $4.80) and the current one,
	// started at the hour: $0.50 every 10 minutes since, at least one entry.
	now := time.Now().UTC()
	cur := now.Truncate(time.Hour)
	minutes := now.Sub(cur).Minutes()
	entries := int(minutes/10) + 1
	base := cur.AddDate(0, 0, -3)
	blocks := [][3]float64{{0, 2, 0.25}, {24, 2, 0.5}, {48, 2, 0.4}, {72, float64(entries) / 6, 0.5}}
	want := fmt.Sprintf("%.1f%%", 100*0.5*float64(entries)/6.0)

	run := func(env []string, args ...string) (string, error) {
		cmd := exec.Command(filepath.Join(dir, "warden"), args...)
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	t.Run("subscriber", func(t *testing.T) {
		cfgDir := t.TempDir()
		writeTranscript(t, cfgDir, base, blocks)
		if err := os.WriteFile(filepath.Join(cfgDir, ".credentials.json"),
			[]byte(`{"claudeAiOauth":{"accessToken":"sk-ant-oat01-test","expiresAt":`+fmt.Sprint(now.Add(time.Hour).UnixMilli())+`}}`), 0o600); err != nil {
			t.Fatal(err)
		}
		env := []string{"WARDEN_HOME=" + t.TempDir(), "CLAUDE_CONFIG_DIR=" + cfgDir, "CLAUDE_CODE_OAUTH_TOKEN=",
			"CLAUDE_SECURESTORAGE_CONFIG_DIR=", "WARDEN_OAUTH_BASE_URL=" + srv.URL}
		out, err := run(env, "pace", "poll")
		// The poll failed (exit 1, "open Claude Code to refresh"), the
		// estimate was made.
		if err == nil || !strings.Contains(out, "http 401") || !strings.Contains(out, "estimated: 5-hour ≈") || !strings.Contains(out, "= "+want) {
			t.Fatalf("pace poll (%v):\n%s", err, out)
		}
		if hits != 1 {
			t.Errorf("endpoint hit %d times", hits)
		}
		out, err = run(env, "pace")
		for _, w := range []string{"These figures are ESTIMATED", "Figures: an ESTIMATE from local transcripts", "Estimate: 5-hour ≈",
			"largest of 3 completed blocks", "$6.00 at API prices", "7-day   unknown", "Last OAuth poll"} {
			if !strings.Contains(out, w) {
				t.Errorf("warden pace lacks %q (%v):\n%s", w, err, out)
			}
		}
		out, err = run(env, "status")
		for _, w := range []string{"5-hour (ESTIMATED): " + want + " used", "7-day: unknown", "pacing figures: an ESTIMATE", "pacing estimate: 5-hour ≈"} {
			if !strings.Contains(out, w) {
				t.Errorf("warden status lacks %q (%v):\n%s", w, err, out)
			}
		}
		t.Logf("warden pace poll / pace / status with a refused token:\n%s", out)
	})

	t.Run("API-key user", func(t *testing.T) {
		cfgDir := t.TempDir()
		writeTranscript(t, cfgDir, base, blocks)
		env := []string{"WARDEN_HOME=" + t.TempDir(), "CLAUDE_CONFIG_DIR=" + cfgDir, "CLAUDE_CODE_OAUTH_TOKEN=",
			"CLAUDE_SECURESTORAGE_CONFIG_DIR=", "WARDEN_OAUTH_BASE_URL=" + srv.URL}
		out, _ := run(env, "pace", "poll")
		if strings.Contains(out, "estimated:") || !strings.Contains(out, "no subscription limits known") {
			t.Errorf("pace poll:\n%s", out)
		}
		out, _ = run(env, "pace")
		if !strings.Contains(out, "no subscription limits known") || strings.Contains(out, "ESTIMATE") {
			t.Errorf("warden pace:\n%s", out)
		}
		out, _ = run(env, "status")
		if !strings.Contains(out, "pacing: no subscription limits known") || strings.Contains(out, "ESTIMATE") {
			t.Errorf("warden status:\n%s", out)
		}
	})
}
