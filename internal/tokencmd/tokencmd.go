// Package tokencmd is `warden token create|list|revoke`, built on the
// store it is given: warden-core keeps the tokens of a lone daemon in the
// local SQLite store; with a shared PostgreSQL store (a pool of workers,
// whose API checks tokens there) warden-helper runs the same command on it,
// as warden-core does not link pgx.
package tokencmd

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/store"
)

// Store is where the tokens are kept: the local SQLite store, or the
// shared PostgreSQL one of a pool.
type Store interface {
	AddToken(ctx context.Context, t *store.APIToken) error
	Tokens(ctx context.Context) ([]store.APIToken, error)
	RevokeToken(ctx context.Context, idOrName string, now time.Time) (int64, error)
	Close() error
}

// Opener opens the store for one command (cmd and args: the running
// command and its positional arguments).
type Opener func(ctx context.Context, cmd *cobra.Command, args []string) (Store, error)

// New is `warden token create|list|revoke`: bearer tokens of the daemon's
// API, kept hashed in the store open opens (works with or without the
// daemon running).
func New(open Opener) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "token create|list|revoke",
		Short: "Bearer tokens for the daemon's API (stored hashed, shown once)",
	}
	cmd.AddCommand(newCreateCmd(open), newListCmd(open), newRevokeCmd(open))
	return cmd
}

var tokenName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9 ._:@()-]{0,63}$`)

func newCreateCmd(open Opener) *cobra.Command {
	var asJSON bool
	var scope, expires string
	cmd := &cobra.Command{
		Use:   "create NAME [--scope read|tasks|admin|webhook:alertmanager] [--expires 30d]",
		Short: "Make a token and print it once (only its hash is kept)",
		Long: `Make a token and print it once (only its hash is kept).

--scope is what the token may do: read (every GET: lists, events, metrics,
the dashboard's pages), tasks (read, and queue, cancel, approve or deny
tasks; the default), admin (everything, the loopback-only agent control
routes included), webhook:alertmanager (only /webhook/alertmanager: the
credential to give Alertmanager). --expires makes it stop working after a
time (30d, 2w, 12h) or on a date (2027-01-31, UTC); the default is never.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !tokenName.MatchString(args[0]) {
				return fmt.Errorf("token name %q: use 1–64 letters, digits, spaces or ._:@()- (e.g. \"grafana\" or \"phone\")", args[0])
			}
			sc, err := store.ParseScope(scope)
			if err != nil {
				return fmt.Errorf("--scope: %w", err)
			}
			now := time.Now().UTC()
			var exp *time.Time
			if expires != "" {
				at, err := store.ParseExpiry(expires, now)
				if err != nil {
					return err
				}
				exp = &at
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			st, err := open(ctx, cmd, args)
			if err != nil {
				return err
			}
			defer st.Close()
			tok, hash := store.NewAPIToken()
			t := &store.APIToken{ID: "tok-" + hash[:10], Name: args[0], Hash: hash, Created: now, Scope: sc, Expires: exp}
			if err := st.AddToken(ctx, t); err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				return json.NewEncoder(out).Encode(map[string]any{"id": t.ID, "name": t.Name, "token": tok, "scope": t.Scope, "expires": t.Expires})
			}
			fmt.Fprintf(out, "%s\n\ntoken %s (%s) created with scope %s, %s. It is shown only this once: store it now.\nUse it as: Authorization: Bearer <token>\n",
				tok, t.ID, t.Name, t.Scope, expiryText(t.Expires))
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "JSON output")
	cmd.Flags().StringVar(&scope, "scope", store.ScopeTasks, "what it may do: read, tasks, admin or webhook:alertmanager")
	cmd.Flags().StringVar(&expires, "expires", "", "stop working after 30d, 2w, 12h… or on a date (2027-01-31); default never")
	return cmd
}

func newListCmd(open Opener) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "Tokens with their scope, creation, last use, expiry and revocation (never the tokens)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			st, err := open(ctx, cmd, args)
			if err != nil {
				return err
			}
			defer st.Close()
			ts, err := st.Tokens(ctx)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				if ts == nil {
					ts = []store.APIToken{}
				}
				return json.NewEncoder(out).Encode(map[string]any{"tokens": ts})
			}
			if len(ts) == 0 {
				fmt.Fprintln(out, "no tokens; make one with `warden token create NAME`")
				return nil
			}
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tNAME\tSCOPE\tCREATED\tLAST USED\tEXPIRES\tSTATE")
			now := time.Now()
			for _, t := range ts {
				used, expires, state := "never", "never", "active"
				if t.LastUsed != nil {
					used = t.LastUsed.Local().Format("2006-01-02 15:04")
				}
				if t.Expires != nil {
					expires = t.Expires.Local().Format("2006-01-02 15:04")
					if t.Expired(now) {
						state = "expired"
					}
				}
				if t.Revoked != nil {
					state = "revoked " + t.Revoked.Local().Format("2006-01-02 15:04")
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", t.ID, t.Name, t.EffectiveScope(), t.Created.Local().Format("2006-01-02 15:04"), used, expires, state)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "JSON output")
	return cmd
}

// expiryText says when a token stops working.
func expiryText(exp *time.Time) string {
	if exp == nil {
		return "never expiring"
	}
	return "expiring " + exp.Local().Format("2006-01-02 15:04 MST")
}

func newRevokeCmd(open Opener) *cobra.Command {
	return &cobra.Command{
		Use:   "revoke ID|NAME",
		Short: "Revoke a token: the API refuses it from the next request on",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			st, err := open(ctx, cmd, args)
			if err != nil {
				return err
			}
			defer st.Close()
			n, err := st.RevokeToken(ctx, args[0], time.Now().UTC())
			if err != nil {
				return err
			}
			if n == 0 {
				return fmt.Errorf("no active token with id or name %q; see `warden token list`", args[0])
			}
			fmt.Fprintf(cmd.OutOrStdout(), "revoked %d token(s) named or numbered %q\n", n, args[0])
			return nil
		},
	}
}
