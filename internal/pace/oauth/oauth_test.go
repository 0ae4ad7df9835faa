package oauth

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/pace"
	"github.com/warden-dev/warden/internal/pace/quota"
	"github.com/warden-dev/warden/internal/reqenv"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

const usageBody = `{"five_hour":{"utilization":37.0,"resets_at":"2026-03-10T04:59:59.000000+00:00"},
 "seven_day":{"utilization":26.0,"resets_at":"2026-03-15T14:59:59.771647+00:00"},
 "seven_day_opus":null,"extra_usage":{"is_enabled":false}}`

type fakeAPI struct {
	hits   atomic.Int64
	status atomic.Int64 // 0: 200
	retry  string
}

func (f *fakeAPI) server(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.hits.Add(1)
		if r.URL.Path != "/api/oauth/usage" || r.Header.Get("Authorization") != "Bearer tok-1" ||
			r.Header.Get("anthropic-beta") != "oauth-2025-04-20" {
			t.Errorf("bad request %s %v", r.URL.Path, r.Header)
		}
		if c := f.status.Load(); c != 0 {
			if f.retry != "" {
				w.Header().Set("Retry-After", f.retry)
			}
			w.WriteHeader(int(c))
			return
		}
		w.Write([]byte(usageBody))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func creds(t *testing.T) func(string) string {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".credentials.json"),
		[]byte(`{"claudeAiOauth":{"accessToken":"tok-1","refreshToken":"r","expiresAt":4102444800000}}`), 0o600)
	return func(k string) string {
		if k == "CLAUDE_CONFIG_DIR" {
			return dir
		}
		return ""
	}
}

func openN(t *testing.T, n int) []*sqlite.Store {
	path := filepath.Join(t.TempDir(), "warden.db")
	var out []*sqlite.Store
	for i := 0; i < n; i++ {
		st, err := sqlite.Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		out = append(out, st)
	}
	return out
}

// Eight sessions (each with its own connection to one SQLite file) try to
// poll at the same moment: exactly one request per interval.
func TestLeaseOnePollPerIntervalAcrossSessions(t *testing.T) {
	api := &fakeAPI{}
	srv := api.server(t)
	stores := openN(t, 8)
	getenv := creds(t)
	t0 := time.Date(2026, 3, 9, 12, 0, 0, 0, time.UTC)
	interval := 300 * time.Second
	round := func(now time.Time) int {
		var wg sync.WaitGroup
		var polled atomic.Int64
		for _, st := range stores {
			wg.Add(1)
			go func(st *sqlite.Store) {
				defer wg.Done()
				r := PollIfDue(context.Background(), st, Options{BaseURL: srv.URL, Interval: interval, Getenv: getenv}, now)
				if r.Err != nil {
					t.Errorf("poll: %v", r.Err)
				}
				if r.Polled {
					polled.Add(1)
				}
			}(st)
		}
		wg.Wait()
		return int(polled.Load())
	}
	for i, step := range []struct {
		at   time.Duration
		want int64 // total hits after the round
	}{{0, 1}, {10 * time.Second, 1}, {299 * time.Second, 1}, {300 * time.Second, 2}, {450 * time.Second, 2}, {600 * time.Second, 3}} {
		n := round(t0.Add(step.at))
		if got := api.hits.Load(); got != step.want {
			t.Fatalf("round %d at +%v: %d requests in total, want %d (polled by %d)", i, step.at, got, step.want, n)
		}
	}
	snap, err := stores[3].LatestSnapshot(context.Background(), quota.SourceOAuth)
	if err != nil || snap == nil || *snap.FiveHour.Util != 37 || *snap.SevenDay.Util != 26 ||
		!snap.FiveHour.ResetsAt.Equal(time.Date(2026, 3, 10, 4, 59, 59, 0, time.UTC)) {
		t.Fatalf("snapshot %+v %v", snap, err)
	}
}

// 429 with Retry-After defers the next poll past the interval; then
// exponential backoff grows on repeated failures; success resets it.
func TestRetryAfterAndBackoff(t *testing.T) {
	api := &fakeAPI{retry: "900"}
	api.status.Store(429)
	srv := api.server(t)
	st := openN(t, 1)[0]
	opt := Options{BaseURL: srv.URL, Interval: 300 * time.Second, Getenv: creds(t)}
	t0 := time.Date(2026, 3, 9, 12, 0, 0, 0, time.UTC)
	r := PollIfDue(context.Background(), st, opt, t0)
	if !r.Polled || r.Err == nil || !r.Next.Equal(t0.Add(900*time.Second)) {
		t.Fatalf("429: %+v", r)
	}
	if r := PollIfDue(context.Background(), st, opt, t0.Add(301*time.Second)); r.Polled {
		t.Fatalf("polled before Retry-After: %+v", r)
	}
	if api.hits.Load() != 1 {
		t.Fatalf("hits %d", api.hits.Load())
	}
	// Second failure without Retry-After: backoff 2 × interval.
	api.retry = ""
	api.status.Store(500)
	t1 := t0.Add(901 * time.Second)
	r = PollIfDue(context.Background(), st, opt, t1)
	if !r.Polled || !r.Next.Equal(t1.Add(600*time.Second)) {
		t.Fatalf("backoff: %+v", r)
	}
	api.status.Store(0)
	t2 := t1.Add(600 * time.Second)
	r = PollIfDue(context.Background(), st, opt, t2)
	if r.Err != nil || !r.Next.Equal(t2.Add(300*time.Second)) {
		t.Fatalf("success: %+v", r)
	}
	l, _ := st.LeaseState(context.Background(), pace.LeaseOAuth)
	if l.Failures != 0 || l.LastStatus != "ok" || l.Polls != 3 {
		t.Errorf("lease %+v", l)
	}
}

func TestUnauthorizedSaysOpenClaudeCode(t *testing.T) {
	api := &fakeAPI{}
	api.status.Store(401)
	srv := api.server(t)
	st := openN(t, 1)[0]
	r := PollIfDue(context.Background(), st, Options{BaseURL: srv.URL, Getenv: creds(t)}, time.Now())
	if r.Err == nil || !strings.Contains(r.Status, "open Claude Code to refresh") {
		t.Fatalf("%+v", r)
	}
}

// A stale status-line figure falls back to the poll: the hook finds a poll
// due (and takes the lease), the poller records the OAuth figures, and
// pacing then uses them; a fresh status-line figure needs no poll.
func TestStaleStatuslineFallsBackToPoll(t *testing.T) {
	api := &fakeAPI{}
	srv := api.server(t)
	st := openN(t, 1)[0]
	getenv := creds(t)
	ctx := context.Background()
	now := time.Date(2026, 3, 9, 12, 0, 0, 0, time.UTC)
	s := pace.DefaultSettings()
	u5, u7 := 10.0, 20.0
	r5, r7 := now.Add(2*time.Hour), now.Add(72*time.Hour)
	st.AddSnapshot(ctx, &quota.Snapshot{Time: now.Add(-400 * time.Second), Source: quota.SourceStatusline,
		FiveHour: quota.Window{Util: &u5, ResetsAt: &r5}, SevenDay: quota.Window{Util: &u7, ResetsAt: &r7}})

	var spawned []string
	pace.Spawn = func(_ *reqenv.Env, args []string) error { spawned = args; return nil }
	t.Setenv("CLAUDE_CONFIG_DIR", getenv("CLAUDE_CONFIG_DIR"))
	t.Setenv("CLAUDE_CODE_OAUTH_TOKEN", "")
	started, err := pace.MaybePoll(ctx, st, s, now)
	if err != nil || !started || len(spawned) != 4 || spawned[0] != "pace" || spawned[1] != "poll" {
		t.Fatalf("poll not started: %v %v %v", started, err, spawned)
	}
	// A second session a moment later must not start another.
	if again, _ := pace.MaybePoll(ctx, st, s, now.Add(time.Second)); again {
		t.Fatal("second poller started within the interval")
	}
	r := PollIfDue(ctx, st, Options{BaseURL: srv.URL, Interval: s.PollInterval, Getenv: getenv, Holder: spawned[3]}, now.Add(time.Second))
	if !r.Polled || r.Err != nil {
		t.Fatalf("poll: %+v", r)
	}
	fig, err := pace.LatestFigures(ctx, st, now.Add(2*time.Second), s.PollInterval)
	if err != nil || fig.Source != quota.SourceOAuth {
		t.Fatalf("figures %+v %v", fig, err)
	}

	// Fresh status line: no poll due.
	st.AddSnapshot(ctx, &quota.Snapshot{Time: now.Add(320 * time.Second), Source: quota.SourceStatusline,
		FiveHour: quota.Window{Util: &u5, ResetsAt: &r5}})
	spawned = nil
	if started, _ := pace.MaybePoll(ctx, st, s, now.Add(400*time.Second)); started || spawned != nil {
		t.Fatal("polled although the status line is fresh")
	}
	fig, _ = pace.LatestFigures(ctx, st, now.Add(400*time.Second), s.PollInterval)
	if fig.Source != quota.SourceStatusline {
		t.Errorf("fresh status line not preferred: %s", fig.Source)
	}
	if api.hits.Load() != 1 {
		t.Errorf("hits %d", api.hits.Load())
	}
}
