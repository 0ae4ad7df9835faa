package usercmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/warden-dev/warden/internal/judge"
	"github.com/warden-dev/warden/internal/reqenv"
	"github.com/warden-dev/warden/internal/store"
)

// `warden tempo on|off|status` switches the tempo completion judge for every
// session; `warden tempo session on|off|status` for this session only (it
// wins over the global switch and tempo.enabled). Typed in the prompt the
// session is the current one; on the CLI it is the latest session of the
// current directory (or --session). Only the user runs these: a tool call
// that tries is denied by the self-toggle gate.

func runTempo(ctx context.Context, env *Env, args []string) (string, error) {
	if env.Store == nil {
		return "", storeUnavailable(env)
	}
	if len(args) > 0 && strings.EqualFold(args[0], "session") {
		return runTempoSession(ctx, env, args[1:])
	}
	switch arg(args) {
	case "on", "off":
		if err := env.Store.SetSetting(ctx, judge.SettingTempo, arg(args)); err != nil {
			return "", err
		}
		return "tempo " + strings.ToUpper(arg(args)) + " for every session (a session override typed with `warden tempo session on|off` still wins).\n" +
			tempoStatus(ctx, env), nil
	case "", "status":
		return tempoStatus(ctx, env), nil
	}
	return "", fmt.Errorf("use on, off, status, or session on|off|status")
}

func runTempoSession(ctx context.Context, env *Env, args []string) (string, error) {
	sid := env.SessionID
	if sid == "" {
		sid = latestSession(ctx, env.Store, env.ProjectDir)
	}
	if sid == "" {
		return "", fmt.Errorf("no session found for %s; type `warden tempo session on|off` in Claude Code, or pass --session ID", env.ProjectDir)
	}
	switch a := arg(args); a {
	case "on", "off":
		if err := env.Store.SetSetting(ctx, judge.SessionSetting(sid), a); err != nil {
			return "", err
		}
		return fmt.Sprintf("tempo %s for session %s (overrides the global switch and tempo.enabled).\n%s",
			strings.ToUpper(a), sid, tempoStatusFor(ctx, env, sid)), nil
	case "", "status":
		return tempoStatusFor(ctx, env, sid), nil
	}
	return "", fmt.Errorf("use session on, session off or session status")
}

func tempoStatus(ctx context.Context, env *Env) string {
	return tempoStatusFor(ctx, env, env.SessionID)
}

func tempoStatusFor(ctx context.Context, env *Env, sid string) string {
	cfg := env.config()
	global, _, _ := env.Store.Setting(ctx, judge.SettingTempo)
	session := ""
	if sid != "" {
		session, _, _ = env.Store.Setting(ctx, judge.SessionSetting(sid))
	}
	provider, pwhy := judge.ResolveProvider(cfg.LLM.Provider, reqenv.From(ctx).Getenv, reqenv.From(ctx).LookPath)
	on, why := judge.TempoActive(cfg.Tempo.Enabled, global, session, provider)
	state := "off"
	if on {
		state = "ON"
	}
	out := fmt.Sprintf("tempo is %s (%s); provider: %s (%s); at most %d consecutive blocks per turn",
		state, why, provider, pwhy, cfg.Tempo.MaxBlocks)
	if on {
		if _, err := judge.FindBinaryFor(reqenv.From(ctx)); err != nil {
			out += "\nbut " + err.Error() + ": tempo is skipped until it is installed"
		}
	}
	return out
}

// latestSession is the most recent session with an event in projectDir.
func latestSession(ctx context.Context, st store.Local, projectDir string) string {
	evs, err := st.Events(ctx, store.Filter{Limit: 500})
	if err != nil {
		return ""
	}
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].SessionID != "" && (projectDir == "" || evs[i].Cwd == projectDir || strings.HasPrefix(evs[i].Cwd, projectDir+"/")) {
			return evs[i].SessionID
		}
	}
	return ""
}
