package cli

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/harness"
	"github.com/warden-dev/warden/internal/pace"
	"github.com/warden-dev/warden/internal/pace/codexrl"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// runHarnessPace is `warden pace --harness codex|gemini|copilot`. Codex:
// the newest rate limits in its newest rollout are stored (as its hooks
// store them) and the decision a Codex session gets now is shown. Gemini
// and Copilot expose no quota: it says so.
func runHarnessPace(cmd *cobra.Command, h harness.Name, asJSON bool) error {
	out := cmd.OutOrStdout()
	if h != harness.Codex {
		if asJSON {
			return writeJSON(out, map[string]any{"harness": h, "note": pace.NoQuotaNote(h.Title())})
		}
		fmt.Fprintln(out, pace.NoQuotaNote(h.Title())+".")
		return nil
	}
	ctx := context.Background()
	cwd, _ := os.Getwd()
	cfg, _ := config.Load(paths.UserConfig(), cwd)
	s := pace.SettingsFrom(cfg)
	st, err := sqlite.Open(ctx, paths.DB())
	if err != nil {
		return fmt.Errorf("open warden's store %s: %w", paths.DB(), err)
	}
	defer st.Close()
	home := codexrl.Home(nil)
	rollout, err := codexrl.Newest(home)
	if err != nil {
		return fmt.Errorf("find Codex rollouts under %s: %w", home, err)
	}
	if rollout != "" {
		lim, err := codexrl.Latest(rollout)
		if err != nil {
			return fmt.Errorf("read Codex rate limits from %s: %w", rollout, err)
		}
		if lim != nil {
			if _, err := pace.RecordCodex(ctx, st, lim.Snapshot, ""); err != nil {
				return err
			}
			for _, w := range lim.Ignored {
				fmt.Fprintf(cmd.ErrOrStderr(), "warden: Codex reports a %s; pacing uses 5-hour and 7-day windows that reset within their length, and ignores it\n", w)
			}
		}
	}
	now := time.Now().UTC()
	rec, err := pace.CodexDecision(ctx, st, s, "", now)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(out, rec)
	}
	fmt.Fprint(out, pace.CodexReport(rec, now))
	return nil
}
