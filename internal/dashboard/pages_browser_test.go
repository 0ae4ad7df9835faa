package dashboard_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// pages are every page of the dashboard, with what each must show.
var pages = []struct{ name, path, expect string }{
	{"overview", "/", "svg.chart[data-window='5-hour']"},
	{"live", "/live", "details.ev"},
	{"decisions", "/decisions", "#rules tbody tr"},
	{"explain", "/decisions/explain/6", "pre#explain-cmd"},
	{"judgements", "/judgements", "#judgements tbody tr"},
	{"tasks", "/tasks", "#board article.task"},
	{"task", "/tasks/{running}", "ol.story li"},
	{"usage", "/usage", "#daily tbody tr"},
	{"settings", "/settings", "#settings tbody tr"},
}

// TestPagesLoadWithoutConsoleErrors opens every page at laptop and phone
// width in headless Chromium: each shows its data and the browser reports
// no console error, exception, CSP violation or failed request. With
// WARDEN_DASHBOARD_SHOTS=DIR it also writes a screenshot of each (the
// README's docs/dashboard/).
func TestPagesLoadWithoutConsoleErrors(t *testing.T) {
	e := newEnv(t)
	seed(t, e, e.now())
	shots := os.Getenv("WARDEN_DASHBOARD_SHOTS")
	for _, size := range []struct {
		name          string
		width, height int64
		mobile        bool
	}{{"desktop", 1280, 860, false}, {"phone", 390, 844, true}} {
		t.Run(size.name, func(t *testing.T) {
			b := newBrowser(t, size.width, size.height, size.mobile)
			b.login(t, e)
			for _, p := range pages {
				b.open(t, e.url(e.path(p.path)))
				n := eval[int](t, b, `document.querySelectorAll("`+p.expect+`").length`)
				if n == 0 {
					t.Errorf("%s: nothing matches %s", p.name, p.expect)
				}
				if errs := b.takeErrors(); len(errs) > 0 {
					t.Errorf("%s at %s: browser errors:\n%s", p.name, size.name, strings.Join(errs, "\n"))
				}
				// Nothing may overflow the viewport sideways but a table's
				// own scroll box.
				if w := eval[int](t, b, `document.documentElement.scrollWidth`); w > int(size.width)+1 {
					t.Errorf("%s at %s: page is %d px wide in a %d px viewport", p.name, size.name, w, size.width)
				}
				if shots != "" {
					raw, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
					if err != nil {
						t.Fatal(err)
					}
					png, err := smallPNG(raw)
					if err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(filepath.Join(shots, p.name+"-"+size.name+".png"), png, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
		})
	}
}
