package dashboard_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/warden-dev/warden/internal/server"

	"github.com/warden-dev/warden/internal/task"
)

// dataMarkers are strings of the seeded data: none may reach a client
// without a valid token.
var dataMarkers = []string{"a1b2c3d4", "force_push", "claude-haiku", "Fix the flaky cart test", "retention_days", "5-hour"}

func noRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// TestLoginRequiredHTTP asks every page, the stream and the JSON endpoint
// without a token, with a wrong one and with a right one: without a valid
// token a page sends the browser to the login form (and back after it),
// the stream and JSON answer 401, and none of them carries any data.
func TestLoginRequiredHTTP(t *testing.T) {
	e := newEnv(t)
	seed(t, e, e.now())
	c := &http.Client{CheckRedirect: noRedirect, Timeout: 10 * time.Second}
	get := func(path, cookie string) (int, string, string) {
		req, _ := http.NewRequest("GET", e.url(path), nil)
		if cookie != "" {
			req.AddCookie(&http.Cookie{Name: server.CookieName, Value: cookie})
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.Header.Get("Content-Type") == "text/event-stream" {
			return resp.StatusCode, "", ""
		}
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Location"), string(body)
	}
	paths := []string{"/live/stream", "/ui/pacing.json"}
	for _, p := range pages {
		paths = append(paths, e.path(p.path))
	}
	for _, tok := range []string{"", "wrong", testToken + "x"} {
		for _, p := range paths {
			code, loc, body := get(p, tok)
			stream := strings.HasPrefix(p, "/live/stream") || strings.HasPrefix(p, "/ui/")
			switch {
			case stream && code != http.StatusUnauthorized:
				t.Errorf("GET %s with token %q: %d, want 401", p, tok, code)
			case !stream && (code != http.StatusSeeOther || loc != "/login?next="+url.QueryEscape(p)):
				t.Errorf("GET %s with token %q: %d to %q, want 303 to the login form", p, tok, code, loc)
			}
			for _, m := range dataMarkers {
				if strings.Contains(body, m) {
					t.Errorf("GET %s with token %q leaks %q", p, tok, m)
				}
			}
		}
	}
	if code, _, body := get("/login?next=%2Fdecisions", ""); code != http.StatusOK || !strings.Contains(body, `id="token"`) ||
		!strings.Contains(body, `name="next" value="/decisions"`) {
		t.Errorf("login form: %d\n%s", code, body)
	}
	for _, p := range pages {
		if code, _, body := get(e.path(p.path), testToken); code != http.StatusOK || strings.Contains(body, `id="token"`) {
			t.Errorf("GET %s with the token: %d (login form shown: %v)", p.path, code, strings.Contains(body, `id="token"`))
		}
	}

	// A wrong token at the login form sets no cookie and shows no data.
	resp, err := c.PostForm(e.url("/login"), url.Values{"token": {"wrong"}, "next": {"/decisions"}})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || len(resp.Cookies()) != 0 || !strings.Contains(string(body), "not valid") {
		t.Errorf("wrong token login: %d, cookies %v", resp.StatusCode, resp.Cookies())
	}
	// The right one sets an HttpOnly, SameSite=Strict cookie and goes on.
	resp, err = c.PostForm(e.url("/login"), url.Values{"token": {testToken}, "next": {"/decisions"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	ck := resp.Cookies()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/decisions" || len(ck) != 1 ||
		!ck[0].HttpOnly || ck[0].SameSite != http.SameSiteStrictMode {
		t.Errorf("login: %d to %q, cookies %+v", resp.StatusCode, resp.Header.Get("Location"), ck)
	}
	// An open redirect is refused.
	for _, next := range []string{"//evil.example/", "/\\evil.example/", "https://evil.example/", "/login"} {
		resp, err = c.PostForm(e.url("/login"), url.Values{"token": {testToken}, "next": {next}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if loc := resp.Header.Get("Location"); loc != "/" {
			t.Errorf("login with next=%s redirects to %q", next, loc)
		}
	}
}

// TestMutationsNeedCSRF: a logged-in cookie alone cannot add or cancel a
// task — a missing or wrong CSRF token, or another origin, is refused and
// nothing changes.
func TestMutationsNeedCSRF(t *testing.T) {
	e := newEnv(t)
	seed(t, e, e.now())
	c := &http.Client{CheckRedirect: noRedirect, Timeout: 10 * time.Second}
	post := func(path string, form url.Values, origin string) int {
		req, _ := http.NewRequest("POST", e.url(path), strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.AddCookie(&http.Cookie{Name: server.CookieName, Value: testToken})
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	before := e.tasks()
	csrf := csrfFromPage(t, e)
	for _, tc := range []struct {
		name   string
		form   url.Values
		origin string
	}{
		{"no token", url.Values{"prompt": {"x"}}, ""},
		{"wrong token", url.Values{"prompt": {"x"}, "csrf": {"00"}}, ""},
		{"other origin", url.Values{"prompt": {"x"}, "csrf": {csrf}}, "http://evil.example"},
	} {
		if code := post("/tasks", tc.form, tc.origin); code != http.StatusForbidden {
			t.Errorf("add task, %s: %d, want 403", tc.name, code)
		}
		if code := post("/tasks/"+e.taskIDs["queued"]+"/cancel", tc.form, tc.origin); code != http.StatusForbidden {
			t.Errorf("cancel task, %s: %d, want 403", tc.name, code)
		}
	}
	after := e.tasks()
	if len(after) != len(before) || after[0].Status != task.Queued {
		t.Fatalf("refused requests changed the tasks: %+v", after)
	}
	if code := post("/tasks", url.Values{"prompt": {"  "}, "csrf": {csrf}}, e.url("")); code != http.StatusBadRequest {
		t.Errorf("empty prompt: %d, want 400", code)
	}
	if code := post("/tasks", url.Values{"prompt": {"ok"}, "priority": {"high"}, "csrf": {csrf}}, ""); code != http.StatusBadRequest {
		t.Errorf("bad priority: %d, want 400", code)
	}
	if code := post("/tasks", url.Values{"prompt": {"a real task"}, "csrf": {csrf}}, "http://"+e.addr); code != http.StatusSeeOther {
		t.Errorf("valid add: %d, want 303", code)
	}
	if after := e.tasks(); len(after) != len(before)+1 {
		t.Errorf("valid add: %d tasks, want %d", len(after), len(before)+1)
	}
}

// csrfFromPage reads the CSRF token a logged-in page carries.
func csrfFromPage(t *testing.T, e *env) string {
	t.Helper()
	req, _ := http.NewRequest("GET", e.url("/tasks"), nil)
	req.AddCookie(&http.Cookie{Name: server.CookieName, Value: testToken})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	_, rest, ok := strings.Cut(string(body), `<meta name="csrf" content="`)
	if !ok {
		t.Fatal("no csrf meta on /tasks")
	}
	tok, _, _ := strings.Cut(rest, `"`)
	return tok
}

// TestLoginRequiredInBrowser: a fresh browser sees the login form on any
// page; a wrong token keeps it there with no data; the right one shows
// the page it asked for.
func TestLoginRequiredInBrowser(t *testing.T) {
	e := newEnv(t)
	seed(t, e, e.now())
	b := newBrowser(t, 1280, 860, false)
	b.do(t, chromedp.Navigate(e.url("/decisions")), chromedp.WaitVisible(chromedp.ID("token")))
	b.do(t, chromedp.SendKeys(chromedp.ID("token"), "not-the-token"), chromedp.Submit(chromedp.ID("token")),
		chromedp.WaitVisible(chromedp.ID("login-error")))
	text := eval[string](t, b, `document.body.innerText`)
	for _, m := range dataMarkers {
		if strings.Contains(text, m) {
			t.Errorf("login page with a wrong token shows %q", m)
		}
	}
	b.do(t, chromedp.SendKeys(chromedp.ID("token"), testToken), chromedp.Submit(chromedp.ID("token")),
		chromedp.WaitVisible(chromedp.ID("rules")))
	if p := eval[string](t, b, `location.pathname`); p != "/decisions" {
		t.Errorf("after login at %s, want /decisions", p)
	}
	if c := eval[string](t, b, `document.cookie`); c != "" {
		t.Errorf("script can read the cookie: %q", c)
	}
	// Log out: the cookie is gone and pages ask again.
	b.do(t, chromedp.Click(chromedp.CSS(".logout button")), chromedp.WaitVisible(chromedp.ID("token")))
	b.open(t, e.url("/"))
	if n := eval[int](t, b, `document.querySelectorAll("#token").length`); n != 1 {
		t.Error("after logout the overview is shown without login")
	}
	if errs := b.takeErrors(); len(errs) > 0 {
		t.Errorf("browser errors on the login path: %q", errs)
	}
}
