package cmds

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store"
)

// auditVerifyTimeout bounds a verification of the shared chain: a pool's
// chain may be long, and each statement of the walk has its own 60 s bound.
const auditVerifyTimeout = 30 * time.Minute

// SharedAudit is what `warden audit verify --shared --json` prints.
type SharedAudit struct {
	OK      bool              `json:"ok"`
	Store   string            `json:"store"` // always "shared"
	Where   string            `json:"where,omitempty"`
	From    string            `json:"from,omitempty"`
	Checked int64             `json:"checked"`
	Break   *store.ChainBreak `json:"break,omitempty"`
	// Error is why the chain could not be walked (no store configured,
	// unreachable); OK is false and Break nil then.
	Error string `json:"error,omitempty"`
}

// newAuditCmd is `warden audit verify --shared`: the shared PostgreSQL
// store's audit chain. warden-core verifies the local chain itself; only
// this needs pgx, which hooks must not load.
func newAuditCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "audit", Short: "The shared store's audit chain"}
	var shared, asJSON bool
	verify := &cobra.Command{
		Use:   "verify --shared [--json]",
		Short: "Walk the shared store's audit chain and report the first break (exit 1 if broken)",
		Long: `Walk the audit chain of the shared PostgreSQL store (store.url, or
WARDEN_DATABASE_URL, which wins): every machine's events as the shippers
appended them, each row's hash recomputed and its link to the row before it
checked, from the retention anchor on. Names the first row deleted, changed
or reordered. Connects without migrating and changes nothing.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !shared {
				return errors.New("warden-helper verifies the shared store only: pass --shared (warden audit verify checks this machine's store)")
			}
			ctx, cancel := context.WithTimeout(context.Background(), auditVerifyTimeout)
			defer cancel()
			cfg, _ := config.Load(paths.UserConfig(), "")
			r := VerifyShared(ctx, cfg)
			return printSharedAudit(cmd.OutOrStdout(), r, asJSON)
		},
	}
	verify.Flags().BoolVar(&shared, "shared", false, "verify the shared PostgreSQL store's chain")
	verify.Flags().BoolVar(&asJSON, "json", false, `print {"ok","store","where","checked","break":{"id","reason"},"error"}`)
	cmd.AddCommand(verify)
	return cmd
}

// VerifyShared walks the chain of the shared store cfg (and the
// environment) names.
func VerifyShared(ctx context.Context, cfg *config.Config) SharedAudit {
	r := SharedAudit{Store: "shared"}
	url, from := cfg.StoreURL()
	if url == "" {
		r.Error = fmt.Sprintf("no shared store configured: set store.url ([store] url in %s) or %s to postgres://USER:PASSWORD@HOST:5432/DATABASE; without --shared, warden audit verify checks this machine's store",
			paths.UserConfig(), config.DatabaseURLEnv)
		return r
	}
	r.From = from
	st, msg := connectShared(ctx, url, from)
	if st == nil {
		r.Error = msg
		return r
	}
	defer st.Close()
	r.Where = st.Where()
	// The schema this warden hashes: a store not migrated yet has no
	// chain, and one from a newer warden may hash fields this one does
	// not know (every row would look changed).
	if err := st.Check(ctx); err != nil {
		r.Error = err.Error()
		return r
	}
	n, brk, err := st.VerifyChain(ctx)
	r.Checked, r.Break = n, brk
	if err != nil {
		r.Error = fmt.Sprintf("walk the audit chain of %s: %v", r.Where, err)
		return r
	}
	r.OK = brk == nil
	return r
}

// printSharedAudit prints r as JSON or as lines, and fails the command
// (exit 1) unless the chain is intact.
func printSharedAudit(w io.Writer, r SharedAudit, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			return err
		}
		if !r.OK {
			return errSilent
		}
		return nil
	}
	switch {
	case r.Error != "":
		return errors.New(r.Error)
	case r.Break != nil:
		fmt.Fprintf(w, "shared audit chain BROKEN at row %d: %s (PostgreSQL %s)\n", r.Break.ID, r.Break.Reason, r.Where)
		fmt.Fprintf(w, "rows before %d verified; the row's origin is in the event_origins table of that database\n", r.Break.ID)
		return errSilent
	}
	fmt.Fprintf(w, "shared audit chain intact: %d rows checked in PostgreSQL %s (from %s)\n", r.Checked, r.Where, r.From)
	return nil
}
