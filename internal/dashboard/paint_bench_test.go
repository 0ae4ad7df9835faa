package dashboard_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/warden-dev/warden/internal/server"
)

// firstPaint is the page's first contentful paint in ms, from the
// browser's own Paint Timing entry (navigation start to first text).
const firstPaint = `(() => { const e = performance.getEntriesByName("first-contentful-paint")[0]; return e ? e.startTime : -1 })()`

// BenchmarkHandler is the server's part of a page: the handler over the
// seeded store, no network, no browser.
func BenchmarkHandler(b *testing.B) {
	e := newEnv(b)
	seed(b, e, e.now())
	for _, p := range pages {
		b.Run(p.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				req := httptest.NewRequest("GET", e.path(p.path), nil)
				req.AddCookie(&http.Cookie{Name: server.CookieName, Value: testToken})
				rec := httptest.NewRecorder()
				e.dash.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("%s: %d", p.path, rec.Code)
				}
			}
		})
	}
}

// BenchmarkFirstPaint loads each page in headless Chromium over loopback
// and reports its first contentful paint (fcp-ms) and, as the baseline
// measured in the same run, that of a bare static page served by a plain
// http.Server (ratio = page / baseline). The target is fcp-ms under 200.
//
//	go test -run '^$' -bench FirstPaint ./internal/dashboard
func BenchmarkFirstPaint(b *testing.B) {
	e := newEnv(b)
	seed(b, e, e.now())
	br := newBrowser(b, 1280, 860, false)
	br.login(b, e)
	bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bare</title></head><body><main><h1>bare page</h1></main></body></html>`)
	}))
	defer bare.Close()
	measure := func(b *testing.B, url string) float64 {
		br.do(b, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("main h1")))
		for i := 0; i < 100; i++ {
			if v := eval[float64](b, br, firstPaint); v >= 0 {
				return v
			}
			time.Sleep(10 * time.Millisecond)
		}
		b.Fatalf("%s: no first-contentful-paint entry", url)
		return 0
	}
	var base float64
	b.Run("baseline", func(b *testing.B) {
		sum := 0.0
		for i := 0; i < b.N; i++ {
			sum += measure(b, bare.URL)
		}
		base = sum / float64(b.N)
		b.ReportMetric(base, "fcp-ms")
	})
	for _, p := range pages {
		b.Run(p.name, func(b *testing.B) {
			sum := 0.0
			for i := 0; i < b.N; i++ {
				sum += measure(b, e.url(e.path(p.path)))
			}
			avg := sum / float64(b.N)
			b.ReportMetric(avg, "fcp-ms")
			if base > 0 {
				b.ReportMetric(avg/base, "ratio")
			}
		})
	}
}
