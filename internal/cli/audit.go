package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/exitcode"
	"github.com/warden-dev/warden/internal/helper"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store"
)

func newAuditCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "audit {verify|export}",
		Short: "Check or export the hash-chained record of events and decisions",
		Long: `Every event row warden records carries the hash of the row before it, so a
row deleted, changed or reordered after the fact breaks the chain.
"warden audit verify" walks it and names the first break; "warden audit
export" writes the rows with their hashes as JSON lines.`,
	}
	cmd.AddCommand(newAuditVerifyCmd(), newAuditExportCmd())
	return cmd
}

func newAuditVerifyCmd() *cobra.Command {
	var asJSON, shared bool
	cmd := &cobra.Command{
		Use:   "verify [--shared] [--json]",
		Short: "Walk the audit chain and report the first break (exit 1 if broken)",
		Long: `Walk this machine's audit chain (the local SQLite store) and name the first
row deleted, changed or reordered. With --shared, walk the chain of the shared
PostgreSQL store instead (store.url or WARDEN_DATABASE_URL): every machine's
shipped events, as that store chained them.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if shared {
				// PostgreSQL needs pgx, which warden-core (the hooks'
				// binary) must not link: warden-helper walks it.
				args := []string{"audit", "verify", "--shared"}
				if asJSON {
					args = append(args, "--json")
				}
				code, err := helper.Run(args, cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr())
				if err != nil {
					return err
				}
				if code != 0 {
					return ExitError{Code: code}
				}
				return nil
			}
			ctx := context.Background()
			return withExistingStore(ctx, func(st store.Local) error {
				n, brk, err := st.VerifyChain(ctx)
				if err != nil {
					return err
				}
				out := cmd.OutOrStdout()
				if asJSON {
					json.NewEncoder(out).Encode(struct {
						OK      bool              `json:"ok"`
						Checked int64             `json:"checked"`
						Break   *store.ChainBreak `json:"break,omitempty"`
					}{brk == nil, n, brk})
				} else if brk == nil {
					fmt.Fprintf(out, "audit chain intact: %d rows checked in %s\n", n, paths.DB())
				} else {
					fmt.Fprintf(out, "audit chain BROKEN at row %d: %s\n", brk.ID, brk.Reason)
					fmt.Fprintf(out, "rows before %d verified; inspect with `warden log --json` and `warden audit export`\n", brk.ID)
				}
				if brk != nil {
					return ExitError{Code: exitcode.Failure}
				}
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"ok":…,"checked":N,"break":{"id","reason"}}`)
	cmd.Flags().BoolVar(&shared, "shared", false, "verify the shared PostgreSQL store's chain (store.url / WARDEN_DATABASE_URL) instead of this machine's")
	return cmd
}

func newAuditExportCmd() *cobra.Command {
	var since, output string
	cmd := &cobra.Command{
		Use:   "export [--since D] [-o FILE]",
		Short: "Write every recorded event with its chain hashes as JSON lines",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := context.Background()
			f := store.Filter{}
			if since != "" {
				t, err := parseSince(since, time.Now())
				if err != nil {
					return err
				}
				f.Since = t
			}
			return withExistingStore(ctx, func(st store.Local) error {
				evs, err := st.Events(ctx, f)
				if err != nil {
					return err
				}
				w := cmd.OutOrStdout()
				if output != "" && output != "-" {
					file, err := os.OpenFile(output, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
					if err != nil {
						return fmt.Errorf("export to %s: %w (choose a new file name)", output, err)
					}
					defer file.Close()
					w = file
				}
				enc := json.NewEncoder(w)
				for _, e := range evs {
					if err := enc.Encode(e); err != nil {
						return err
					}
				}
				if output != "" && output != "-" {
					fmt.Fprintf(cmd.ErrOrStderr(), "exported %d events to %s\n", len(evs), output)
				}
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&since, "since", "", "only events since a duration ago (24h, 7d) or a date")
	cmd.Flags().StringVarP(&output, "output", "o", "", "write to FILE (must not exist) instead of stdout")
	return cmd
}
