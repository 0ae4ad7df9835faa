package hook

import (
	"context"
	"errors"
	"sync"
)

// sessions orders the hooks of one session inside this process. It is a
// lock table, not request state: an entry lives while a hook of its
// session holds or waits for it, and is removed when the last leaves.
var sessions = &sessionQueue{m: map[string]*sessionTurn{}}

type sessionQueue struct {
	mu sync.Mutex
	m  map[string]*sessionTurn
}

type sessionTurn struct {
	ch    chan struct{} // holds one token: the hook whose turn it is
	users int           // holders and waiters
}

var errSessionBusy = errors.New("another hook of this session held its lock past the deadline")

// enter waits for key's turn (or ctx) and returns the function that ends it.
func (q *sessionQueue) enter(ctx context.Context, key string) (leave func(), err error) {
	q.mu.Lock()
	t := q.m[key]
	if t == nil {
		t = &sessionTurn{ch: make(chan struct{}, 1)}
		q.m[key] = t
	}
	t.users++
	q.mu.Unlock()
	done := func() {
		q.mu.Lock()
		if t.users--; t.users == 0 {
			delete(q.m, key)
		}
		q.mu.Unlock()
	}
	select {
	case t.ch <- struct{}{}:
		return func() { <-t.ch; done() }, nil
	case <-ctx.Done():
		done()
		return nil, errSessionBusy
	}
}
