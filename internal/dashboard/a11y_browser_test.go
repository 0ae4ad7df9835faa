package dashboard_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// contrastJS returns every visible text whose colour against its
// effective background is under WCAG AA (4.5:1; 3:1 for large text).
const contrastJS = `(() => {
  const rgb = s => { const m = s.match(/[\d.]+/g); return m ? m.map(Number) : [0,0,0,0] };
  const lum = c => { const f = v => { v /= 255; return v <= 0.03928 ? v/12.92 : Math.pow((v+0.055)/1.055, 2.4) };
    return 0.2126*f(c[0]) + 0.7152*f(c[1]) + 0.0722*f(c[2]) };
  const bg = el => { for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length < 4 || c[3] > 0) return c; }
    return [255,255,255] };
  const bad = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.textContent.trim()) continue;
    const el = n.parentElement;
    if (el.closest("[hidden], svg, .skip")) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const cs = getComputedStyle(el);
    const fg = rgb(cs.color), b = bg(el);
    const l1 = lum(fg), l2 = lum(b);
    const ratio = (Math.max(l1,l2)+0.05)/(Math.min(l1,l2)+0.05);
    const size = parseFloat(cs.fontSize), bold = parseInt(cs.fontWeight) >= 700;
    const need = (size >= 24 || (bold && size >= 18.66)) ? 3 : 4.5;
    if (ratio < need) bad.push(n.textContent.trim().slice(0,30) + " " + ratio.toFixed(2));
  }
  return bad;
})()`

// TestAccessibility checks every page's text contrast (WCAG AA) at both
// widths, and that the keyboard alone gets around: Tab reaches the skip
// link first and then the navigation, and Enter on a live row opens it.
func TestAccessibility(t *testing.T) {
	e := newEnv(t)
	seed(t, e, e.now())
	for _, size := range []struct {
		name          string
		width, height int64
		mobile        bool
	}{{"desktop", 1280, 860, false}, {"phone", 390, 844, true}} {
		b := newBrowser(t, size.width, size.height, size.mobile)
		b.login(t, e)
		for _, p := range pages {
			b.open(t, e.url(e.path(p.path)))
			if bad := eval[[]string](t, b, contrastJS); len(bad) > 0 {
				t.Errorf("%s at %s: text under AA contrast: %s", p.name, size.name, strings.Join(bad, "; "))
			}
		}
	}

	b := newBrowser(t, 1280, 860, false)
	b.login(t, e)
	b.open(t, e.url("/live"))
	b.do(t, chromedp.KeyEvent(kb.Tab))
	if got := eval[string](t, b, `document.activeElement.className`); got != "skip" {
		t.Errorf("first Tab focuses %q, want the skip link", got)
	}
	b.do(t, chromedp.KeyEvent(kb.Tab), chromedp.KeyEvent(kb.Tab))
	if got := eval[string](t, b, `document.activeElement.getAttribute("href")`); got != "/" {
		t.Errorf("third Tab focuses %q, want the first nav link", got)
	}
	b.do(t, chromedp.Focus(chromedp.CSS("#events details.ev summary")), chromedp.KeyEvent(kb.Enter))
	if !eval[bool](t, b, `document.querySelector("#events details.ev").open`) {
		t.Error("Enter on a focused live row does not open it")
	}
}
