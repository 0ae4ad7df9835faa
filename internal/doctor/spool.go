package doctor

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"time"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/helper"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/keeper"
	"github.com/warden-dev/warden/internal/store/ship"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// spool reports the shared PostgreSQL store, when one is configured:
// whether it answers (one line saying why not: wrong URL, password,
// database, version), and what the local store holds that is not shipped
// yet, with the age of the oldest. The probe runs in warden-helper (`ship
// --status`), which links pgx; warden-core does not. Hooks never wait for
// the shared store, so one that fails is a warning, not an error.
func (d *doctor) spool(ctx context.Context, db string) {
	cfg, _ := config.Load(paths.UserConfig(), "")
	url, _ := cfg.StoreURL()
	if url == "" {
		return
	}
	r, err := shipStatus(ctx)
	if err != nil {
		// No probe: say at least what waits, from the local store.
		st, oerr := sqlite.Open(ctx, db)
		if oerr != nil {
			return // reported by the store check
		}
		defer st.Close()
		local, lerr := ship.Inspect(ctx, st, url, 5*time.Second, nil)
		if lerr != nil {
			local.Backlog = -1
		} else {
			_ = local.CheckRetention(ctx, st, cfg.RetentionDays, time.Now(), 5*time.Second)
		}
		d.warn("shared store", fmt.Sprintf("%s: not checked (%v); %s", ship.Redact(url), err, withRetention(local)),
			"run `make install` so warden-helper sits next to warden (it ships and probes the shared store)")
		return
	}
	if line := r.DroppedLine(); line != "" {
		d.warn("unshipped rows pruned", line+"; the shared store will never have them",
			"fix the shared store (store.url / WARDEN_DATABASE_URL), or raise store.unshipped_keep_days to keep unshipped rows longer")
	}
	backlog := withRetention(r)
	if !r.Reachable && r.Permanent {
		d.warn("shared store", fmt.Sprintf("%s; %s (hooks keep working: the local store holds them)", r.Error, backlog),
			fmt.Sprintf("retrying will not mend this: fix store.url / WARDEN_DATABASE_URL or the server; until then rows older than retention_days + store.unshipped_keep_days (%d days) are pruned even if never shipped",
				cfg.RetentionDays+cfg.Store.UnshippedKeepDays))
		return
	}
	if !r.Reachable {
		d.warn("shared store", fmt.Sprintf("%s; %s (hooks keep working: the local store holds them)", r.Error, backlog),
			"start the PostgreSQL server or fix store.url / WARDEN_DATABASE_URL; the keeper or `warden serve` ships the backlog once it answers")
		return
	}
	detail := r.Target + " reachable; " + backlog
	if c, err := checkSharedStore(); err == nil {
		if !c.OK {
			d.problem("shared store", c.Error+"; "+backlog, "fix store.url / "+config.DatabaseURLEnv+" or the server, then run `warden store check`")
			return
		}
		detail = "PostgreSQL " + c.ServerVersion + " at " + c.Where + " (from " + c.From + "), schema current; " + backlog
	}
	if !r.LastShipped.IsZero() {
		detail += "; last shipped " + ship.Age(time.Since(r.LastShipped)) + " ago"
	}
	if r.Backlog > 0 {
		if running, _ := keeper.Running(paths.KeeperLock()); !running {
			detail += "; no keeper or daemon runs to ship them now (the next hook starts the keeper; `warden ship --once` ships them)"
		} else if r.Retrying != "" {
			detail += "; the shipper last failed: " + r.Retrying
		}
	}
	if r.RetentionLine() != "" {
		d.warn("shared store", detail, "`warden ship --once` ships them now; the next SessionStart's retention deletes them then")
		return
	}
	d.ok("shared store", detail)
}

// withRetention is the report's backlog line and, when retention keeps
// rows only because they are not shipped, that too.
func withRetention(r ship.Report) string {
	if line := r.RetentionLine(); line != "" {
		return r.BacklogLine() + "; " + line
	}
	return r.BacklogLine()
}

// shipStatus runs `warden-helper ship --status --json` under a deadline.
func shipStatus(ctx context.Context) (ship.Report, error) {
	var r ship.Report
	bin, err := helper.Path()
	if err != nil {
		return r, err
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, "ship", "--status", "--json")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return r, fmt.Errorf("%s ship --status: %v %s", bin, err, bytes.TrimSpace(stderr.Bytes()))
	}
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		return r, fmt.Errorf("%s ship --status: %v", bin, err)
	}
	return r, nil
}
