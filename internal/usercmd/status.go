package usercmd

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/gates"
	"github.com/warden-dev/warden/internal/pace"
	"github.com/warden-dev/warden/internal/reqenv"
	"github.com/warden-dev/warden/internal/version"
)

func runStatus(ctx context.Context, env *Env, _ []string) (string, error) {
	var b strings.Builder
	state := "on"
	if !Enabled(ctx, env.Store) {
		state = "OFF (type `warden on`)"
	}
	fmt.Fprintf(&b, "%s — %s\n", version.String(), state)

	switch {
	case env.Store == nil:
		fmt.Fprintf(&b, "store: %s — NOT USABLE: %v (run `warden doctor`)\n", env.StorePath, env.StoreErr)
	default:
		day := time.Now().Add(-24 * time.Hour)
		counts, err := env.Store.DecisionCounts(ctx, day)
		if err != nil {
			fmt.Fprintf(&b, "store: %s — read failed: %v\n", env.StorePath, err)
			break
		}
		total := 0
		for _, n := range counts {
			total += n
		}
		fmt.Fprintf(&b, "store: %s — %d events in the last 24 h, %d denied, %d asked\n",
			env.StorePath, total, counts["deny"], counts["ask"])
	}

	if env.Store != nil {
		mode := "off"
		if gates.Safemode(ctx, env.Store) {
			mode = "ON (type `s-`)"
		}
		fmt.Fprintf(&b, "safemode: %s\n", mode)
		if br, err := gates.LoadBreaker(ctx, env.Store, env.ProjectDir); err == nil {
			fmt.Fprintf(&b, "%s\n", br.Status(env.config().Gates.BreakerThreshold, reqenv.Location(ctx)))
		}
	}
	for _, l := range pace.StatusLines(ctx, env.Store, time.Now()) {
		b.WriteString(l + "\n")
	}
	if steps := env.config().Gates.StartupSteps; len(steps) > 0 && env.State != nil {
		parsed, _ := gates.ParseSteps(steps, env.ProjectDir)
		missing := gates.MissingSteps(parsed, gates.Load(env.State).Startup)
		fmt.Fprintf(&b, "startup gate: %d of %d steps done%s\n", len(parsed)-len(missing), len(parsed), gates.StepsText(missing))
	}

	if env.SessionID != "" && env.State != nil {
		fmt.Fprintf(&b, "session: %s — %d tool calls, subagent depth %d\n",
			env.SessionID, env.State.ToolCount, env.State.SubagentDepth)
	}

	if n := len(env.ConfigProblems); n > 0 {
		fmt.Fprintf(&b, "config: %d problem(s), defaults used for them (run `warden config check`):\n", n)
		for i, p := range env.ConfigProblems {
			if i == 3 {
				fmt.Fprintf(&b, "  … and %d more\n", n-3)
				break
			}
			fmt.Fprintf(&b, "  %s\n", p.String())
		}
	} else {
		b.WriteString("config: ok\n")
	}
	return strings.TrimRight(b.String(), "\n"), nil
}
