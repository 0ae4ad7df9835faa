package cmds

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/exitcode"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/postgres"
)

// StoreCheck is what `warden store check --json` prints.
type StoreCheck struct {
	// Kind is "sqlite" or "postgres".
	Kind string `json:"kind"`
	// Where is the SQLite file or host:port/database (no password).
	Where string `json:"where"`
	// From names the setting the URL came from.
	From          string `json:"from,omitempty"`
	ServerVersion string `json:"server_version,omitempty"`
	Schema        int    `json:"schema,omitempty"`
	OK            bool   `json:"ok"`
	Error         string `json:"error,omitempty"`
}

// newStoreCmd is `warden store`: the shared store's commands. They live
// in warden-helper because they link pgx, which hooks must not load.
func newStoreCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "store", Short: "The store: which one is configured, and whether it answers"}
	var asJSON bool
	check := &cobra.Command{
		Use:   "check [--json]",
		Short: "Connect to the configured store and check its server and schema (changes nothing)",
		Long: `Connect to the store store.url (or WARDEN_DATABASE_URL, which wins)
names and check that the PostgreSQL server answers, is version 13 or newer,
and has the schema this warden writes. Nothing is migrated or written.
Without a URL the store is the local SQLite file (warden doctor checks it).
Exit 1, with one line naming the setting and the fix, when it is not usable.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			cfg, _ := config.Load(paths.UserConfig(), "")
			r := CheckStore(ctx, cfg)
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				if err := enc.Encode(r); err != nil {
					return err
				}
				if !r.OK {
					return errSilent
				}
				return nil
			}
			if !r.OK {
				return errors.New(r.Error)
			}
			if r.Kind == "sqlite" {
				fmt.Fprintf(cmd.OutOrStdout(), "store: SQLite at %s (store.url and %s not set)\n", r.Where, config.DatabaseURLEnv)
				return nil
			}
			fmt.Fprintf(cmd.OutOrStdout(), "store: PostgreSQL %s at %s (from %s), schema %d: ok\n", r.ServerVersion, r.Where, r.From, r.Schema)
			return nil
		},
	}
	check.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	cmd.AddCommand(check)
	return cmd
}

// errSilent fails the command without another message (what it printed
// said why).
var errSilent = exitcode.Error{Code: exitcode.Failure}

// CheckStore checks the store cfg (and the environment) chooses, without
// changing it.
func CheckStore(ctx context.Context, cfg *config.Config) StoreCheck {
	url, from := cfg.StoreURL()
	if url == "" {
		return StoreCheck{Kind: "sqlite", Where: paths.DB(), OK: true}
	}
	r := StoreCheck{Kind: "postgres", From: from}
	st, msg := connectShared(ctx, url, from)
	if st == nil {
		r.Error = msg
		return r
	}
	defer st.Close()
	r.Where = st.Where()
	st.Pool().QueryRow(ctx, "SHOW server_version").Scan(&r.ServerVersion)
	r.Schema, _ = st.SchemaVersion(ctx)
	if err := st.Check(ctx); err != nil {
		r.Error = err.Error()
		return r
	}
	r.OK = true
	return r
}

// connectShared checks the shared store's URL (from names where it was
// set) and connects without migrating; msg says what stopped it.
func connectShared(ctx context.Context, url, from string) (st *postgres.Store, msg string) {
	if m := config.CheckStoreURL(url); m != "" {
		return nil, from + ": " + m
	}
	st, err := postgres.Connect(ctx, url)
	if err != nil {
		return nil, err.Error()
	}
	return st, ""
}
