package cli

import (
	"testing"

	"github.com/warden-dev/warden/internal/store"
)

func TestLogDetailShowsFileChangeAndDuration(t *testing.T) {
	a, r, d := int64(12), int64(3), int64(420)
	e := store.Event{Path: "/p/internal/x/main.go", HashBefore: "9f2c11aa55", HashAfter: "41ab00ff77", LinesAdded: &a, LinesRemoved: &r, DurationMS: &d}
	if got, want := eventDetail(e), "main.go +12 -3 9f2c11aa→41ab00ff 420ms"; got != want {
		t.Errorf("detail %q, want %q", got, want)
	}
	if got := eventDetail(store.Event{Path: "/n.txt", HashAfter: "abcdef0123"}); got != "n.txt -→abcdef01" {
		t.Errorf("new file detail %q", got)
	}
	if got := eventDetail(store.Event{}); got != "" {
		t.Errorf("no detail for a plain event: %q", got)
	}
}
