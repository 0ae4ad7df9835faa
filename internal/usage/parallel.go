package usage

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// forEach calls do(s, i) for every i in [0, n), on at most workers
// goroutines (GOMAXPROCS when workers <= 0). Items are handed out in order,
// so callers sort the biggest first; each worker makes its own state s with
// newState once (a scanner and its read buffer) and reuses it for every
// item it takes. An error does not stop the other items; the first one is
// returned, after ctx's error if ctx ended (then no new item starts).
//
// errgroup.SetLimit would start a goroutine per item and leave nowhere to
// keep the per-worker buffer, which is most of what a worker allocates.
func forEach[S any](ctx context.Context, n, workers int, newState func() S, do func(s S, i int) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	var (
		next     atomic.Int64
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	for range workers {
		wg.Go(func() {
			s := newState()
			for {
				i := int(next.Add(1)) - 1
				if i >= n || ctx.Err() != nil {
					return
				}
				if err := do(s, i); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	return firstErr
}

// noState is newState for a worker that keeps none.
func noState() struct{} { return struct{}{} }
