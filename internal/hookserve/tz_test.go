//go:build unix

package hookserve

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"
	_ "time/tzdata" // the zones below without the system's zoneinfo

	"github.com/warden-dev/warden/internal/gates"
)

// Callers in other time zones than the server's are served, not declined,
// and each sees its own local time: two callers typing `rb?` at once get
// the tripped breaker's time in their own zone.
func TestCallersTimeZoneIsCarried(t *testing.T) {
	r := newRig(t, Options{})
	proj := r.home
	tripped := time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)
	b := &gates.Breaker{Tripped: true, TrippedAt: tripped, Why: "3 consecutive failures"}
	if err := gates.SaveBreaker(context.Background(), r.st, proj, b); err != nil {
		t.Fatal(err)
	}
	prompt := `{"session_id":"tz-%s","cwd":"` + proj + `","hook_event_name":"UserPromptSubmit","prompt":"rb?"}`
	zones := map[string]string{"Asia/Tokyo": "21:00:00", "Europe/Paris": "13:00:00", "": "12:00:00"}
	var wg sync.WaitGroup
	for zone, want := range zones {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := r.do(t, call{args: hookArgs(), environ: r.environ("TZ="+zone, "CLAUDE_PROJECT_DIR="+proj),
				cwd: proj, stdin: strings.Replace(prompt, "%s", strings.ReplaceAll(zone, "/", "-"), 1)})
			if res.err != nil || res.declined {
				t.Errorf("TZ=%q: %+v, want served", zone, res)
				return
			}
			if !strings.Contains(res.stdout, "TRIPPED at "+want) {
				t.Errorf("TZ=%q: stdout %q, want the trip time %s", zone, res.stdout, want)
			}
		}()
	}
	wg.Wait()
	if n := r.srv.Declines(); n != 0 {
		t.Errorf("%d declines, want 0", n)
	}
}
