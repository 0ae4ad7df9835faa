package dashboard

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"sync"
	"time"
)

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed static
var staticFiles embed.FS

// Options configure the dashboard.
type Options struct {
	// CheckToken validates API tokens (required).
	CheckToken TokenCheck
	// CookieName is the login cookie (the daemon's API accepts the same
	// one); "": DefaultCookieName.
	CookieName string
	Sources    Sources
	// Version is shown in the footer.
	Version string
	// AttachHint is shown on the tasks page when a task has no attach
	// command of its own ("warden agent attach <id>").
	AttachHint string
	// Now is the clock (tests); nil: time.Now.
	Now func() time.Time
	// Poll is how often the live stream looks for new events (hooks write
	// from other processes, so there is nothing to wait on); 0: 200 ms.
	Poll time.Duration
	// TokenRecheck is how often an open live stream checks its token
	// again, so that a revoked or expired token stops the stream as it
	// stops every other request; 0: DefaultTokenRecheck.
	TokenRecheck time.Duration
	// Log receives errors of the data sources; nil: slog.Default().
	Log *slog.Logger
	// EventSource says which store the event pages read (a daemon in a
	// pool reads the shared store, this machine's when that does not
	// answer), shown in the footer; nil: not shown. Event ids belong to
	// that store, so when its Name changes the live stream tells the page
	// to reload instead of resuming by id.
	EventSource func() EventStoreInfo
}

// EventStoreInfo names the store the event pages read.
type EventStoreInfo struct {
	// Name changes only when another store answers ("shared", "local").
	Name string
	// Text is the footer's note (which store, where, why not the shared
	// one).
	Text string
}

// Server is the dashboard's http.Handler.
type Server struct {
	opt   Options
	pages map[string]*template.Template
	mux   *http.ServeMux
	// retired closes when this handler stops being the one the daemon
	// serves (Retire): its live streams end and tell their pages to
	// reload, which reaches the handler that replaced it.
	retired    chan struct{}
	retireOnce sync.Once
}

// pageNames are the templates next to layout.html.
var pageNames = []string{"login", "overview", "live", "decisions", "explain", "judgements", "tasks", "task", "usage", "settings", "error"}

// New builds the handler. Templates are parsed here, once.
func New(opt Options) (*Server, error) {
	if opt.CheckToken == nil {
		return nil, errors.New("dashboard: Options.CheckToken is required (the API token check)")
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.CookieName == "" {
		opt.CookieName = DefaultCookieName
	}
	if opt.Poll <= 0 {
		opt.Poll = 200 * time.Millisecond
	}
	if opt.TokenRecheck <= 0 {
		opt.TokenRecheck = DefaultTokenRecheck
	}
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	s := &Server{opt: opt, pages: map[string]*template.Template{}, mux: http.NewServeMux(), retired: make(chan struct{})}
	base, err := template.New("layout.html").Funcs(funcs).ParseFS(templateFiles, "templates/layout.html")
	if err != nil {
		return nil, fmt.Errorf("dashboard templates: %w", err)
	}
	for _, name := range pageNames {
		t, err := template.Must(base.Clone()).ParseFS(templateFiles, "templates/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("dashboard template %s: %w", name, err)
		}
		s.pages[name] = t
	}
	s.routes()
	return s, nil
}

// Retire ends every open live stream of this handler, and any opened on
// it later, with "reload": the page loads afresh from whatever serves now.
// A daemon that swaps its HTTP handler (a pool's daemon whose shared store
// came up) calls it on the old one after the swap, so a page opened
// before the swap does not keep streaming from a handler nobody reaches
// any more.
func (s *Server) Retire() { s.retireOnce.Do(func() { close(s.retired) }) }

func (s *Server) routes() {
	static, _ := fs.Sub(staticFiles, "static")
	files := http.StripPrefix("/static/", http.FileServerFS(static))
	s.mux.Handle("GET /static/", cacheFor(time.Hour, files))
	s.mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) {
		r.URL.Path = "/static/icon.svg"
		s.mux.ServeHTTP(w, r)
	})
	s.mux.HandleFunc("GET /login", s.login)
	s.mux.HandleFunc("POST /login", s.login)
	s.mux.HandleFunc("POST /logout", s.logout)
	s.mux.HandleFunc("GET /{$}", s.requireLogin(s.overview))
	s.mux.HandleFunc("GET /live", s.requireLogin(s.live))
	s.mux.HandleFunc("GET /live/stream", s.requireToken(s.stream))
	s.mux.HandleFunc("GET /decisions", s.requireLogin(s.decisions))
	s.mux.HandleFunc("GET /decisions/explain/{id}", s.requireLogin(s.explain))
	s.mux.HandleFunc("GET /judgements", s.requireLogin(s.judgements))
	s.mux.HandleFunc("GET /tasks", s.requireLogin(s.tasks))
	s.mux.HandleFunc("POST /tasks", s.addTask)
	s.mux.HandleFunc("GET /tasks/{id}", s.requireLogin(s.task))
	s.mux.HandleFunc("POST /tasks/{id}/cancel", s.cancelTask)
	s.mux.HandleFunc("POST /tasks/{id}/approve", s.answerTask(true))
	s.mux.HandleFunc("POST /tasks/{id}/deny", s.answerTask(false))
	s.mux.HandleFunc("POST /tasks/{id}/reply", s.reviewTask("reply"))
	s.mux.HandleFunc("POST /tasks/{id}/merge", s.reviewTask("merge"))
	s.mux.HandleFunc("GET /usage", s.requireLogin(s.usage))
	s.mux.HandleFunc("GET /settings", s.requireLogin(s.settings))
	s.mux.HandleFunc("GET /ui/pacing.json", s.requireToken(s.pacingJSON))
}

// csp allows this origin only: no inline script or style, no frames.
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("X-Frame-Options", "DENY")
	s.mux.ServeHTTP(w, r)
}

func cacheFor(d time.Duration, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", fmt.Sprintf("public, max-age=%d", int(d.Seconds())))
		h.ServeHTTP(w, r)
	})
}

// page is what every template gets.
type page struct {
	Title   string
	Nav     string // the active nav entry
	CSRF    string
	Version string
	Now     time.Time
	// EventSource is Options.EventSource's text ("" without one).
	EventSource string
	// Missing names a source the page needs and does not have.
	Missing string
	// Errors are data source failures, shown on the page.
	Errors []string
	Data   any
}

// render executes a page into a buffer first, so a template error becomes
// a 500 instead of half a page.
func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, name string, p page) {
	t := s.pages[name]
	if p.Version == "" {
		p.Version = s.opt.Version
	}
	if p.Now.IsZero() {
		p.Now = s.opt.Now()
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout.html", p); err != nil {
		s.opt.Log.Error("dashboard: render", "page", name, "err", err)
		http.Error(w, "dashboard: cannot render "+name+": "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// fail records a data source error for the page and the log.
func (s *Server) fail(p *page, what string, err error) {
	if err == nil {
		return
	}
	s.opt.Log.Error("dashboard: "+what, "err", err)
	p.Errors = append(p.Errors, what+": "+err.Error())
}

func (s *Server) newPage(title, nav, tok string) page {
	return page{Title: title, Nav: nav, CSRF: csrfToken(tok), Version: s.opt.Version, Now: s.opt.Now(), EventSource: s.eventSource().Text}
}

// eventSource is Options.EventSource's answer, zero without one.
func (s *Server) eventSource() EventStoreInfo {
	if s.opt.EventSource == nil {
		return EventStoreInfo{}
	}
	return s.opt.EventSource()
}
