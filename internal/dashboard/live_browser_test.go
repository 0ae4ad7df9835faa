package dashboard_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/warden-dev/warden/internal/dashboard"
	"github.com/warden-dev/warden/internal/store"
)

// visible counts the live rows shown (not hidden by the filter).
const visibleRows = `document.querySelectorAll("#events details.ev:not([hidden])").length`

// TestLiveViewShowsHookFiltersAndPauses fires the real `warden hook`
// against the dashboard's store: the event appears in the open live view
// within a second of the hook returning; the filters narrow the list to
// exactly the store's matching rows; pausing holds new rows until resumed.
func TestLiveViewShowsHookFiltersAndPauses(t *testing.T) {
	e := newEnv(t)
	seed(t, e, e.now())
	b := newBrowser(t, 1280, 860, false)
	b.login(t, e)
	b.open(t, e.url("/live"))
	b.waitFor(t, `document.getElementById("status").textContent === "live"`, 5*time.Second)

	sess := "hooktest-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	e.hook(`{"session_id":"` + sess + `","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"x1","tool_input":{"command":"ls -la"}}`)
	took := b.waitFor(t, `!!document.querySelector('#events details.ev[data-session="`+sess+`"]')`, time.Second)
	t.Logf("hook event shown %s after the hook returned", took)
	got := eval[[]string](t, b, `Array.from(document.querySelector('#events details.ev[data-session="`+sess+`"]').querySelectorAll("summary > *")).map(n => n.textContent)`)
	if len(got) < 4 || got[1] != "PreToolUse" || got[2] != "Bash" || got[3] != "allow" {
		t.Errorf("row summary = %q, want PreToolUse Bash allow", got)
	}
	// Expanding a row shows its facts.
	b.do(t, chromedp.Click(chromedp.CSS(`#events details.ev[data-session="`+sess+`"] summary`)))
	facts := eval[string](t, b, `document.querySelector('#events details.ev[data-session="`+sess+`"] dl.facts').innerText`)
	for _, want := range []string{sess, "tool_use_id", "x1", "/tmp"} {
		if !contains(facts, want) {
			t.Errorf("expanded facts lack %q:\n%s", want, facts)
		}
	}

	// Filters narrow the list to what the store holds for them.
	all := storeCount(t, e, dashboard.EventFilter{})
	if n := eval[int](t, b, visibleRows); n != all {
		t.Fatalf("unfiltered: %d rows shown, store has %d", n, all)
	}
	for _, f := range []struct {
		field, value string
		filter       dashboard.EventFilter
	}{
		{"tool", "Bash", dashboard.EventFilter{Tool: "Bash"}},
		{"decision", "deny", dashboard.EventFilter{Decision: "deny"}},
		{"session", "a1b2", dashboard.EventFilter{Session: "a1b2"}},
		{"event", "PostToolUse", dashboard.EventFilter{Event: "PostToolUse"}},
	} {
		setFilter(t, b, f.field, f.value)
		want := storeCount(t, e, f.filter)
		if want == 0 || want == all {
			t.Fatalf("filter %s=%s: the seed must make it narrow (store has %d of %d)", f.field, f.value, want, all)
		}
		b.waitFor(t, fmt.Sprintf("%s === %d", visibleRows, want), 2*time.Second)
		setFilter(t, b, f.field, "")
	}
	// Filters combine, and a new event that does not match arrives hidden.
	setFilter(t, b, "tool", "Bash")
	setFilter(t, b, "decision", "deny")
	want := storeCount(t, e, dashboard.EventFilter{Tool: "Bash", Decision: "deny"})
	b.waitFor(t, fmt.Sprintf("%s === %d", visibleRows, want), 2*time.Second)
	// (PreToolUse: a PostToolUse would sleep for the seeded pacing.)
	e.hook(`{"session_id":"` + sess + `","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"x2","tool_input":{"command":"pwd"}}`)
	b.waitFor(t, `!!document.querySelector('#events details.ev[data-session="`+sess+`"][hidden]')`, time.Second)
	setFilter(t, b, "tool", "")
	setFilter(t, b, "decision", "")

	// Pause holds rows; resume shows them, once.
	b.do(t, chromedp.Click(chromedp.ID("pause")))
	before := eval[int](t, b, `document.querySelectorAll("#events details.ev").length`)
	e.hook(`{"session_id":"` + sess + `","cwd":"/tmp","hook_event_name":"Stop"}`)
	b.waitFor(t, `/\b[1-9][0-9]* held while paused/.test(document.getElementById("count").textContent)`, 2*time.Second)
	if n := eval[int](t, b, `document.querySelectorAll("#events details.ev").length`); n != before {
		t.Fatalf("paused view grew from %d to %d rows", before, n)
	}
	b.do(t, chromedp.Click(chromedp.ID("pause")))
	b.waitFor(t, `!!document.querySelector('#events details.ev[data-session="`+sess+`"][data-event="Stop"]')`, time.Second)
	// The held row shows once (other sessions' rows may arrive meanwhile).
	if n := eval[int](t, b, `document.querySelectorAll('#events details.ev[data-session="`+sess+`"][data-event="Stop"]').length`); n != 1 {
		t.Errorf("after resume the held Stop shows %d times, want once", n)
	}
	if errs := b.takeErrors(); len(errs) > 0 {
		t.Errorf("browser errors: %q", errs)
	}
}

// TestLiveViewSurvivesRestart drops the stream by restarting the server
// while events are written: the open page reconnects, resumes from its
// last event id, and ends with every event exactly once, in order.
func TestLiveViewSurvivesRestart(t *testing.T) {
	e := newEnv(t)
	seed(t, e, e.now())
	b := newBrowser(t, 1280, 860, false)
	b.login(t, e)
	b.open(t, e.url("/live"))
	b.waitFor(t, `document.getElementById("status").textContent === "live"`, 5*time.Second)
	write := func(n int, tag string) {
		for i := 0; i < n; i++ {
			ev := &store.Event{SessionID: "restart-" + tag, Event: "PreToolUse", Tool: "Bash", ToolUseID: fmt.Sprint(i)}
			if err := e.st.RecordHook(context.Background(), ev, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	write(5, "before")
	b.waitFor(t, `document.querySelectorAll('#events details.ev[data-session="restart-before"]').length === 5`, 2*time.Second)
	e.restart(func() {
		// Written while the daemon is down: the page must fetch these
		// after it reconnects.
		write(20, "during")
	})
	write(5, "after")
	b.waitFor(t, `document.querySelectorAll('#events details.ev[data-session="restart-after"]').length === 5`, 10*time.Second)
	ids := eval[[]int64](t, b, `Array.from(document.querySelectorAll("#events details.ev")).map(d => +d.dataset.id)`)
	evs, err := e.st.Events(context.Background(), store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != len(evs) {
		t.Fatalf("page shows %d rows, store has %d events", len(ids), len(evs))
	}
	for i, id := range ids { // newest first
		if want := evs[len(evs)-1-i].ID; id != want {
			t.Fatalf("row %d is event %d, want %d (gap or duplicate): %v", i, id, want, ids)
		}
	}
	if n := eval[int](t, b, `document.querySelectorAll('#events details.ev[data-session="restart-during"]').length`); n != 20 {
		t.Errorf("%d of the 20 events written during the restart are shown", n)
	}
}

func setFilter(t *testing.T, b *browser, field, value string) {
	t.Helper()
	js := fmt.Sprintf(`(() => { const el = document.querySelector('#filters [name=%q]'); el.value = %q; el.dispatchEvent(new Event("input", {bubbles: true})); return true })()`, field, value)
	eval[bool](t, b, js)
}

func storeCount(t *testing.T, e *env, f dashboard.EventFilter) int {
	t.Helper()
	evs, err := e.src().Events(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	return len(evs)
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// TestLiveViewReloadsWhenTheEventSourceChanges: a daemon in a pool reads
// the shared store and falls back to its own when that stops answering;
// the two number events differently, so the open live view must not
// resume by id: the stream says "reload" and the page loads afresh, its
// footer naming the new source.
func TestLiveViewReloadsWhenTheEventSourceChanges(t *testing.T) {
	e := newEnv(t)
	seed(t, e, e.now())
	e.eventSource.Store(dashboard.EventStoreInfo{Name: "shared", Text: "events of every machine, from the shared store"})
	b := newBrowser(t, 1280, 860, false)
	b.login(t, e)
	b.open(t, e.url("/live"))
	b.waitFor(t, `document.getElementById("status").textContent === "live"`, 5*time.Second)
	if got := eval[string](t, b, `document.querySelector("footer .event-source").textContent`); got != "events of every machine, from the shared store" {
		t.Fatalf("footer names %q", got)
	}
	// The text alone changing (another failure message) is no switch.
	e.eventSource.Store(dashboard.EventStoreInfo{Name: "shared", Text: "events of every machine, from the shared store (2)"})
	eval[bool](t, b, `window.beforeSwitch = true`)
	e.hook(`{"session_id":"after-text-change","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"y1","tool_input":{"command":"ls"}}`)
	b.waitFor(t, `!!document.querySelector('#events details.ev[data-session="after-text-change"]')`, 2*time.Second)
	if !eval[bool](t, b, `window.beforeSwitch === true`) {
		t.Fatal("the page reloaded though the same store answers")
	}
	e.eventSource.Store(dashboard.EventStoreInfo{Name: "local", Text: "this machine's events only"})
	// (While the page reloads there is no status element.)
	b.waitFor(t, `window.beforeSwitch === undefined && document.getElementById("status")?.textContent === "live"`, 5*time.Second)
	if got := eval[string](t, b, `document.querySelector("footer .event-source").textContent`); got != "this machine's events only" {
		t.Errorf("after the reload the footer names %q", got)
	}
	if errs := b.takeErrors(); len(errs) > 0 {
		t.Errorf("browser errors: %v", errs)
	}
}
