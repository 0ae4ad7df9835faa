package usercmd

import (
	"context"
	"fmt"

	"github.com/warden-dev/warden/internal/gates"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/reqenv"
)

// The gates' user commands. Only the user runs these (typed in the prompt,
// or on the CLI); a tool call that tries is denied by the self-toggle gate.

func runSafemode(ctx context.Context, env *Env, args []string) (string, error) {
	if env.Store == nil {
		return "", storeUnavailable(env)
	}
	switch arg(args) {
	case "on":
		if err := gates.SetSafemode(ctx, env.Store, true); err != nil {
			return "", err
		}
		return "safemode ON: every change (edits, writes, mutating shell commands) is denied until you type `s-`.", nil
	case "off":
		if err := gates.SetSafemode(ctx, env.Store, false); err != nil {
			return "", err
		}
		return "safemode off: changes are allowed again.", nil
	case "", "status":
		if gates.Safemode(ctx, env.Store) {
			return "safemode is ON (type `s-` to turn it off)", nil
		}
		return "safemode is off (type `s+` to turn it on)", nil
	}
	return "", fmt.Errorf("use on, off or status")
}

func runBreaker(ctx context.Context, env *Env, args []string) (string, error) {
	if env.Store == nil {
		return "", storeUnavailable(env)
	}
	b, err := gates.LoadBreaker(ctx, env.Store, env.ProjectDir)
	if err != nil {
		return "", err
	}
	threshold := env.config().Gates.BreakerThreshold
	switch arg(args) {
	case "reset":
		was := b.Tripped
		b.Reset()
		if err := gates.SaveBreaker(ctx, env.Store, env.ProjectDir, b); err != nil {
			return "", err
		}
		if was {
			return "breaker reset: changes are allowed again. Tell Claude what to do differently.", nil
		}
		return "breaker reset (it was not tripped).", nil
	case "", "status":
		return b.Status(threshold, reqenv.Location(ctx)) + "\nproject: " + env.ProjectDir, nil
	}
	return "", fmt.Errorf("use status or reset")
}

func runResearch(ctx context.Context, env *Env, _ []string) (string, error) {
	cfg := env.config().Gates
	g := &gates.SessionState{}
	if env.State != nil {
		g = gates.Load(env.State)
	}
	p := paths.Of(reqenv.From(ctx).Getenv) // the caller's, in the resident server
	avail := gates.Availability{Servers: gates.FindServers(env.ProjectDir, p.ClaudeDir(), p.UserHome())}
	out := gates.ResearchProgress(g, cfg.ResearchCategories, avail, cfg.DocsServers, cfg.Research)
	if env.State == nil {
		out += "\n(progress is per session: type `warden research` in Claude Code to see this session's)"
	}
	return out, nil
}

func arg(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}
