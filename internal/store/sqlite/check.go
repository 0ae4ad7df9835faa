package sqlite

import (
	"context"
	"fmt"
	"time"
)

// quickCheckEvery is how long a passed integrity check stands for a
// resident process: PRAGMA quick_check reads every page of the file, so
// a daemon asked /health/db at API rates would spend its time (and hold a
// read transaction) scanning the store — at 200 requests/s it was the
// largest share of the daemon's CPU after the SQL parser. A failed check
// is never cached, and a new process (`warden doctor`) always checks.
const quickCheckEvery = 30 * time.Second

// quickCheck runs PRAGMA quick_check unless one passed within
// quickCheckEvery; callers arriving meanwhile wait for its answer rather
// than start scans of their own.
func (s *Store) quickCheck(ctx context.Context) error {
	s.checkMu.Lock()
	defer s.checkMu.Unlock()
	if !s.checkedAt.IsZero() && time.Since(s.checkedAt) < quickCheckEvery {
		return nil
	}
	var res string
	if err := s.db.QueryRowContext(ctx, "PRAGMA quick_check").Scan(&res); err != nil {
		return fmt.Errorf("integrity check of %s: %w", s.path, err)
	}
	if res != "ok" {
		return fmt.Errorf("integrity check of %s failed: %s; move the file aside and run warden install to start a new store", s.path, res)
	}
	s.checkedAt = time.Now()
	return nil
}
