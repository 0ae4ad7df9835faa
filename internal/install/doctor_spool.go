package install

import (
	"context"
	"fmt"
	"time"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/keeper"
	"github.com/warden-dev/warden/internal/store/ship"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// spool reports the shared PostgreSQL store, when one is configured:
// whether it answers (one line saying why not: wrong URL, password,
// database, version), and what the local store holds that is not shipped
// yet, with the age of the oldest. Hooks never wait for it, so a shared
// store that fails is a warning, not an error.
func (d *doctor) spool(ctx context.Context, db string) {
	cfg, _ := config.Load(paths.UserConfig(), "")
	url, _ := cfg.StoreURL()
	if url == "" {
		return
	}
	st, err := sqlite.Open(ctx, db)
	if err != nil {
		return // reported by the store check
	}
	defer st.Close()
	probe := func(ctx context.Context) error {
		t, err := ship.Postgres(url)(ctx)
		if err != nil {
			return err
		}
		defer t.Close()
		return t.Check(ctx)
	}
	r, err := ship.Inspect(ctx, st, url, 5*time.Second, probe)
	if err != nil {
		d.warn("shared store", "cannot read what waits to be shipped: "+err.Error(), "run `warden doctor` again; if it persists, check "+db)
		return
	}
	backlog := r.BacklogLine()
	if !r.Reachable {
		d.warn("shared store", fmt.Sprintf("%s; %s (hooks keep working: the local store holds them)", r.Error, backlog),
			"start the PostgreSQL server or fix store.url / WARDEN_DATABASE_URL; the keeper or `warden serve` ships the backlog once it answers")
		return
	}
	detail := r.Target + " reachable; " + backlog
	if !r.LastShipped.IsZero() {
		detail += "; last shipped " + ship.Age(time.Since(r.LastShipped)) + " ago"
	}
	if r.Backlog > 0 {
		if running, _ := keeper.Running(paths.KeeperLock()); !running {
			detail += "; no keeper or daemon runs to ship them now (the next hook starts the keeper)"
		} else if r.Retrying != "" {
			detail += "; the shipper last failed: " + r.Retrying
		}
	}
	d.ok("shared store", detail)
}
