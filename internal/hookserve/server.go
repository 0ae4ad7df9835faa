// Package hookserve is the resident hook server: it answers `warden hook`
// and `warden statusline` handed over by the tiny front (internal/hookclient,
// protocol in internal/hookwire) with the caller's descriptors, arguments,
// environment and working directory, on a store it holds open. The store
// keeper runs it today (`warden keeper`); the daemon embeds the same
// Server.
//
// It lives above the hook runtime (internal/hook) and the status line
// renderer (internal/statusline), which know nothing of each other or of
// it. Nothing about a caller is process-wide: each request carries its
// caller as a value (internal/reqenv) in its context, so requests run
// concurrently, bounded by Options.Workers; the hooks of one session are
// ordered by their session lock (internal/hook). A request the server
// cannot run exactly as the caller's own process would — another user,
// another warden home, a different umask, a working
// directory whose path no longer names the caller's directory, no free
// worker in time — is declined: the client runs it in warden-core, slower
// but faithful. Every decline is logged with its reason and counted
// (Declines, and the store setting DeclineSetting that `warden doctor`
// reads).
//
// Embedding:
//
//	srv := hookserve.New(hookserve.Options{DBPath: db, Store: st, Log: os.Stderr})
//	ln, err := hookserve.Listen(paths.HookSocket())  // while holding the keeper lock
//	go srv.Serve(ln)                                  // returns ErrServerClosed after Shutdown
//	...
//	err = srv.Shutdown(ctx)   // no new requests; running ones finish or hit their deadline
//	st.Close()                // only after Shutdown returned
//
// or simply hookserve.ListenAndServe(ctx, socket, opts), which does all of
// that until ctx ends and drains for Options.Drain.
package hookserve

import (
	"context"
	"errors"
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/warden-dev/warden/internal/handlers"
	"github.com/warden-dev/warden/internal/pipeline"
	"github.com/warden-dev/warden/internal/store"
)

// Options configure a Server. Zero values take the defaults.
type Options struct {
	// DBPath is the store this server holds; a client whose warden home
	// resolves to another store is declined.
	DBPath string
	// Store is the open store every served hook writes to; the server
	// never closes it (close it after Shutdown returns). Give it a few
	// connections that stay open (SetMaxOpenConns and SetMaxIdleConns
	// both ~8, as `warden keeper` does): hooks run side by side, and
	// opening a connection costs about half a millisecond.
	Store store.Local
	// Workers bounds the requests running at once (default 4×GOMAXPROCS,
	// at least 16): Claude Code fires the hooks of parallel tool calls in
	// parallel, and a judge may hold a worker for seconds.
	Workers int
	// QueueWait is how long a request may wait for a free worker before
	// it is declined and its client runs it itself (default 50 ms).
	QueueWait time.Duration
	// ReadTimeout bounds reading a request from a client (default 2 s),
	// and a status line's payload on its stdin.
	ReadTimeout time.Duration
	// Drain is how long ListenAndServe's shutdown waits for running
	// requests (default 5 s); then their contexts are cancelled.
	Drain time.Duration
	// Log gets one line per problem and per decline (nil: discarded).
	Log io.Writer
	// Handlers run for each hook (nil: internal/handlers.All()); an
	// embedder may add its own.
	Handlers []pipeline.Handler
}

func (o *Options) defaults() {
	if o.Workers <= 0 {
		o.Workers = max(16, 4*runtime.GOMAXPROCS(0))
	}
	if o.QueueWait <= 0 {
		o.QueueWait = 50 * time.Millisecond
	}
	if o.ReadTimeout <= 0 {
		o.ReadTimeout = 2 * time.Second
	}
	if o.Drain <= 0 {
		o.Drain = 5 * time.Second
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	if o.Handlers == nil {
		o.Handlers = handlers.All() // once: the list is the same for every request
	}
}

// ErrServerClosed is returned by Serve after Shutdown.
var ErrServerClosed = errors.New("hookserve: server closed")

// Server answers hook and status line requests. Create it with New.
type Server struct {
	o Options

	slots chan struct{} // one per running request (Options.Workers)

	// hard is cancelled when a shutdown runs out of time: running
	// requests' contexts derive from it.
	hard       context.Context
	cancelHard context.CancelFunc

	mu sync.Mutex
	// listeners are what Serve got, each with what to do once it is
	// closed (remove its socket file if it is still this server's)
	listeners map[io.Closer]func()
	closing   bool
	active    sync.WaitGroup           // accepted connections being handled
	recording map[uint64]chan struct{} // hooks answered, their record running; each closed when done (Settle); under mu
	seq       uint64                   // the last connection's id; under mu

	declines atomic.Int64
	persist  chan struct{} // wakes the goroutine that saves the decline count
	saved    chan struct{} // closed when that goroutine ends
	pending  atomic.Int64  // declines not yet added to the store's count
	lastWhy  atomic.Value  // string: the latest decline's reason

	umask int // this process's umask: a caller with another is declined
	uid   int // this process's uid (read once: getuid(2) per request was one system call before the answer)
}

// New makes a server; it serves nothing until Serve.
func New(o Options) *Server {
	o.defaults()
	s := &Server{o: o, slots: make(chan struct{}, o.Workers), listeners: map[io.Closer]func(){},
		persist: make(chan struct{}, 1), saved: make(chan struct{})}
	s.hard, s.cancelHard = context.WithCancel(context.Background())
	s.umask = readUmask()
	s.uid = os.Getuid()
	s.lastWhy.Store("")
	go s.saveDeclines()
	return s
}

// Declines is how many requests this server declined since New.
func (s *Server) Declines() int64 { return s.declines.Load() }

// Shutdown stops accepting (closes every listener Serve got), lets running
// requests finish or reach their own deadline, and returns once none runs,
// so the caller may close the store. If ctx ends first, the running
// requests' contexts are cancelled (handlers stop, pacing sleeps end, the
// events are still recorded) and Shutdown waits for them to return before
// it returns ctx's error.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	first := !s.closing
	s.closing = true
	for l, after := range s.listeners {
		l.Close()
		if after != nil {
			after()
		}
	}
	s.mu.Unlock()
	done := make(chan struct{})
	go func() { s.active.Wait(); close(done) }()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = ctx.Err()
		s.cancelHard()
		<-done
	}
	if first {
		close(s.persist) // the saver flushes what is pending and ends
	}
	<-s.saved
	return err
}

// ListenAndServe listens on socket, serves until ctx ends, then shuts down
// with Options.Drain to finish. The caller must hold the lock that makes
// it the one server of this warden home (the keeper's): a socket file left
// there is a dead server's and is replaced.
func ListenAndServe(ctx context.Context, socket string, o Options) error {
	ln, err := Listen(socket)
	if err != nil {
		return err
	}
	s := New(o)
	errc := make(chan error, 1)
	go func() { errc <- s.Serve(ln) }()
	select {
	case err := <-errc: // the listener failed on its own
		sctx, cancel := context.WithTimeout(context.Background(), s.o.Drain)
		defer cancel()
		s.Shutdown(sctx)
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), s.o.Drain)
	defer cancel()
	if err := s.Shutdown(sctx); err != nil {
		logf(s.o.Log, "requests still running after %v were cancelled", s.o.Drain)
	}
	<-errc
	return nil
}

// begin registers one accepted connection and gives it an id; false once
// shutting down.
func (s *Server) begin() (id uint64, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return 0, false
	}
	s.active.Add(1)
	s.seq++
	return s.seq, true
}

// answered notes that connection id's caller has its answer while its
// event is still being recorded.
func (s *Server) answered(id uint64) {
	s.mu.Lock()
	if s.recording == nil {
		s.recording = map[uint64]chan struct{}{}
	}
	s.recording[id] = make(chan struct{})
	s.mu.Unlock()
}

// end is begin's other half, when a connection's handling returns.
func (s *Server) end(id uint64) {
	s.mu.Lock()
	done, ok := s.recording[id]
	delete(s.recording, id)
	s.mu.Unlock()
	if ok {
		close(done)
	}
	s.active.Done()
}

// Settle waits until every hook answered before it was called has its
// event recorded, or ctx ends. A hook's caller is answered before its
// event is recorded (Claude Code waits for the hook's process and pipes,
// not for the row), so a reader that must see the rows of the hooks
// answered so far settles first: in this process with Settle, in another
// with a settle request on the socket (settle.Wait). The next hook of
// the same session needs neither: it waits for the row on the session
// lock. Hooks not yet answered (a judge, a pacing sleep) are not waited
// for: their callers have not seen them end either.
func (s *Server) Settle(ctx context.Context) error {
	s.mu.Lock()
	running := make([]chan struct{}, 0, len(s.recording))
	for _, done := range s.recording {
		running = append(running, done)
	}
	s.mu.Unlock()
	for _, done := range running {
		select {
		case <-done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

func (s *Server) isClosing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closing
}
