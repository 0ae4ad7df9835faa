package dashboard_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/postgres"
	"github.com/warden-dev/warden/internal/testenv"
)

// TestServeLiveViewFollowsTheSharedStore runs the real daemon of a pool
// whose PostgreSQL is down at start: the live view opened then streams
// this machine's events and its footer says the shared store is not
// reachable yet. When PostgreSQL starts, the daemon switches its handler;
// the open page, without the user reloading it, ends up streaming from
// the shared store: its footer names the shared store, and an event
// another machine's shipper puts there afterwards appears live.
func TestServeLiveViewFollowsTheSharedStore(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemon and PostgreSQL")
	}
	srv := testenv.NewPostgres(t)
	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	dbURL := srv.URL("postgres")
	d := startDaemon(t, "WARDEN_DATABASE_URL="+dbURL)
	b := newBrowser(t, 1280, 860, false)
	b.do(t, chromedp.Navigate(d.url+"/"), chromedp.WaitVisible(chromedp.ID("token")),
		chromedp.SendKeys(chromedp.ID("token"), d.token), chromedp.Submit(chromedp.ID("token")),
		chromedp.WaitVisible(chromedp.CSS(`nav[aria-label="Pages"]`)))
	b.open(t, d.url+"/live")
	b.waitFor(t, `document.getElementById("status")?.textContent === "live"`, 10*time.Second)
	const footer = `(document.querySelector("footer .event-source")?.textContent ?? "")`
	if got := eval[string](t, b, footer); !strings.Contains(got, "this machine's events only") || !strings.Contains(got, "is not reachable yet") {
		t.Fatalf("footer while PostgreSQL is down: %q", got)
	}
	eval[bool](t, b, `window.openedBeforeTheSwitch = true`)

	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	// The daemon retries with a back-off of up to 30 s.
	b.waitFor(t, footer+`.startsWith("events of every machine, from the shared store")`, 90*time.Second)
	b.waitFor(t, `document.getElementById("status")?.textContent === "live"`, 10*time.Second)
	eval[bool](t, b, `window.streamingShared = true`)

	// Another machine's event, as its shipper puts it in the shared store.
	ctx := context.Background()
	pg, err := postgres.Open(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	session := "other-machine-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	if _, err := pg.ImportEvents(ctx, "other-machine", []store.Event{{ID: 1, Time: time.Now(), SessionID: session,
		Event: "PreToolUse", Harness: "claude", Tool: "Bash", Decision: "allow"}}); err != nil {
		t.Fatal(err)
	}
	b.waitFor(t, `!!document.querySelector('#events details.ev[data-session="`+session+`"]')`, 20*time.Second)
	if !eval[bool](t, b, `window.streamingShared === true && window.openedBeforeTheSwitch === undefined`) {
		t.Error("the event did not arrive on the stream of the page that reloaded itself at the switch")
	}
	if errs := b.takeErrors(); len(errs) > 0 {
		t.Errorf("browser errors: %v", errs)
	}
}
