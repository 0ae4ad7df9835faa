package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/harness"
	"github.com/warden-dev/warden/internal/usage"
)

// runHarnessUsage is `warden usage … --harness codex|gemini|copilot`: the
// same reports over that CLI's own transcripts (read in full each time:
// they are not cached).
func runHarnessUsage(ctx context.Context, cmd *cobra.Command, h, report string, o usageOptions, f usage.Filter,
	bopt usage.BlockOptions, week time.Weekday) error {
	d, err := usage.LoadHarness(ctx, h, usage.HarnessOptions{})
	if err != nil {
		return err
	}
	if len(d.Files) == 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "warden: no %s transcripts under %s\n", harness.Name(h).Title(),
			strings.Join(usage.HarnessRoots(h, usage.HarnessOptions{}), " or "))
	}
	return printUsage(cmd, d, report, o, f, bopt, week)
}
