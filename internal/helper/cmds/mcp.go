package cmds

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/exitcode"
	"github.com/warden-dev/warden/internal/judge/llm"
	"github.com/warden-dev/warden/internal/mcp"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// newMCPCmd is `warden-helper mcp`, which `warden mcp` becomes: the MCP
// server on stdin/stdout until the client closes it (internal/mcp).
func newMCPCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: "MCP server on stdio (`warden mcp`; register it with `warden init --mcp`)",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return exitcode.With(exitcode.Usage, fmt.Errorf("mcp: unexpected argument %q (it takes none; it serves MCP on stdin/stdout)", args[0]))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			judgements := func(ctx context.Context) (llm.JudgementStore, error) { return sqlite.Open(ctx, paths.DB()) }
			if err := mcp.Serve(ctx, mcp.Options{Judgements: judgements}); err != nil && ctx.Err() == nil {
				return fmt.Errorf("mcp: %w", err)
			}
			return nil
		},
	}
}
