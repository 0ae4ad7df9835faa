package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// With -pg-url the bench's home configures a PostgreSQL store
// ([store] url in $WARDEN_HOME/config.toml), as a team sharing one would.
// Hooks must not notice: they still write the local SQLite store through
// the keeper, and the keeper's shipper copies the rows to PostgreSQL in
// the background (internal/store/ship). The keeper phase then also waits
// until the shipper has caught up, so the run shows every row arrived.

// ShipCheck is what the shipper did during the keeper phase.
type ShipCheck struct {
	URL string `json:"url"`
	// Rows is the local store's newest event id, Shipped the shipper's mark:
	// equal once everything reached PostgreSQL.
	Rows      int64   `json:"rows"`
	Shipped   int64   `json:"shipped"`
	CaughtUpS float64 `json:"caught_up_s"`
}

// configurePG writes the store URL into the bench home's user config,
// where the keeper reads it when a hook starts it.
func (b *bench) configurePG(url string) error {
	home := ""
	for _, e := range b.env {
		if v, ok := strings.CutPrefix(e, "WARDEN_HOME="); ok {
			home = v
		}
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(home, "config.toml"), []byte("[store]\nurl = "+strconv.Quote(url)+"\n"), 0o600)
}

// waitShipped waits (up to 60 s) until the shipper's mark reaches the
// newest local event, while the keeper still runs.
func (b *bench) waitShipped(url string) (*ShipCheck, error) {
	c := &ShipCheck{URL: url}
	start := time.Now()
	for {
		conn, done, err := b.useConn(nil)
		if err != nil {
			return nil, err
		}
		var mark string
		err = conn.QueryRowContext(context.Background(), `SELECT coalesce(max(id), 0),
			coalesce((SELECT value FROM settings WHERE key = 'ship.events'), '0') FROM events`).Scan(&c.Rows, &mark)
		done()
		if err != nil {
			return nil, err
		}
		c.Shipped, _ = strconv.ParseInt(mark, 10, 64)
		if c.Shipped >= c.Rows {
			c.CaughtUpS = time.Since(start).Seconds()
			return c, nil
		}
		if time.Since(start) > 60*time.Second {
			return c, fmt.Errorf("the keeper's shipper reached event %d of %d within 60 s: is PostgreSQL at %s reachable? (warden doctor says)", c.Shipped, c.Rows, url)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
