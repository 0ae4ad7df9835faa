package usercmd

import (
	"context"
	"slices"
	"time"

	"github.com/warden-dev/warden/internal/pace"
)

// `warden pace` typed in the prompt (and on the CLI without figures): the
// pacing decision in force, from the stored figures, with its reasoning;
// with "--explain" (or "explain") also where figures come from when none
// are stored.
func runPace(ctx context.Context, env *Env, args []string) (string, error) {
	if env.Store == nil {
		return "", storeUnavailable(env)
	}
	if slices.Contains(args, "--explain") || slices.Contains(args, "explain") {
		return pace.ReportExplained(ctx, env.Store, pace.SettingsFrom(env.config()), time.Now().UTC())
	}
	return pace.Report(ctx, env.Store, pace.SettingsFrom(env.config()), time.Now().UTC())
}
