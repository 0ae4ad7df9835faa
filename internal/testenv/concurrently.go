package testenv

import (
	"fmt"
	"sync"
	"testing"
)

// Concurrently runs workers goroutines at once, each calling fn(w, i) for
// i from 0 to per-1, and waits for them all. Each non-empty problem fn
// returns fails the test: the first ten are shown as "w/i: problem", then
// how many calls of all had one. fn runs off the test's goroutine, where
// t.Fatal must not be called: it returns what went wrong instead.
func Concurrently(t testing.TB, workers, per int, fn func(w, i int) (problem string)) {
	t.Helper()
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		problems []string
	)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range per {
				if p := fn(w, i); p != "" {
					mu.Lock()
					problems = append(problems, fmt.Sprintf("%d/%d: %s", w, i, p))
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	for i, p := range problems {
		if i == 10 {
			break
		}
		t.Error(p)
	}
	if len(problems) > 0 {
		t.Errorf("%d of %d calls had a problem", len(problems), workers*per)
	}
}
