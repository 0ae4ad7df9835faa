package doctor

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/hookio"
	"github.com/warden-dev/warden/internal/hookserve"
	"github.com/warden-dev/warden/internal/hookwire"
	"github.com/warden-dev/warden/internal/install"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/sibling"
	"github.com/warden-dev/warden/internal/store/keeper"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

func (d *doctor) binary() {
	bin := paths.Bin()
	fi, err := os.Stat(bin)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		d.problem("binary", bin+" does not exist", "run `warden install`")
	case err != nil:
		detail, fix := describe(install.NewFSError("read", bin, err))
		d.problem("binary", detail, fix)
	case fi.IsDir() || fi.Mode().Perm()&0o111 == 0:
		d.problem("binary", bin+" is not an executable file", "run `warden install` to copy the binary there again")
	default:
		d.ok("binary", bin)
	}
	core := filepath.Join(filepath.Dir(bin), sibling.Core)
	if fi, err := os.Stat(core); err != nil || fi.IsDir() || fi.Mode().Perm()&0o111 == 0 {
		d.problem("binary", core+" is missing or not executable: warden runs it for every command and for hooks the keeper does not answer",
			"run `make install` (it builds warden and warden-core and copies both)")
	}
}

// onPath checks that typing `warden` runs the installed binary (hooks name
// its full path, so this is for the user's commands only).
func (d *doctor) onPath() {
	bin := paths.Bin()
	st := install.LookPathState(bin)
	switch {
	case st.Ours:
		d.ok("on PATH", "`warden` runs "+bin)
	case st.Resolved != "":
		d.warn("on PATH", "`warden` on PATH is "+st.Resolved+", not the installed "+bin+" (hooks use the installed one)",
			"remove or reinstall "+st.Resolved+", or put "+filepath.Dir(bin)+" first: "+install.PathLine(bin))
	case st.LinkDir != "":
		d.warn("on PATH", "`warden` is not on PATH", "run `warden install` again (it links "+filepath.Join(st.LinkDir, "warden")+"), or: ln -s "+bin+" "+filepath.Join(st.LinkDir, "warden"))
	default:
		d.warn("on PATH", "`warden` is not on PATH, so the shell does not find it (hooks name its full path and work)",
			"add to "+install.StartupFile()+": "+install.PathLine(bin))
	}
}

// settings checks every scope: parse, registration, timeouts, malformed
// entries, and commands whose program is missing.
func (d *doctor) settings() {
	var registeredIn []string
	runs := commandScopes{}
	commands, files := 0, 0
	var bad []install.BadCommand
	seen := map[string]bool{}
	for _, sc := range install.Scopes {
		path := install.SettingsPath(sc, d.opts.Cwd)
		if seen[path] { // the project is the home directory
			continue
		}
		seen[path] = true
		name := "settings " + string(sc)
		s, err := install.ReadSettings(path)
		if err != nil {
			detail, fix := describe(err)
			d.problem(name, detail, fix)
			continue
		}
		if !s.Exists {
			d.ok(name, path+": no file")
			continue
		}
		files++
		if reg := d.registration(sc, name, s); len(reg) > 0 {
			registeredIn = append(registeredIn, string(sc))
			for ev, hs := range reg {
				for _, h := range hs {
					runs.add(ev, h.Key())
					d.registeredForm(h)
				}
			}
		}
		d.malformed(name, s)
		_ = s.Visit(func(install.Location, *install.Object) { commands++ }, nil)
		bad = append(bad, install.CheckCommands(s, d.env)...)
	}

	if len(registeredIn) == 0 {
		d.problem("registration", "warden is not registered in any settings file, so Claude Code never runs it",
			"run `warden install` (user scope) or `warden install --scope project`")
	} else if twice := runs.twice(); len(twice) > 0 {
		d.problem("registration", fmt.Sprintf("registered in %s settings with different commands, so warden runs twice for %s",
			strings.Join(registeredIn, " and "), joinLimit(twice, 4, ", ")),
			fmt.Sprintf("keep one: run `warden uninstall --scope %s`", registeredIn[len(registeredIn)-1]))
	} else {
		d.ok("registration", "registered in "+strings.Join(registeredIn, ", ")+" settings")
	}

	problems := 0
	for _, b := range bad {
		detail := fmt.Sprintf("%s: %s: %q: %s", b.File, b.Where, b.Command, b.Reason)
		if b.Unsure {
			d.ok("hook command", detail+" (uses variables not set here; may work inside Claude Code)")
			continue
		}
		problems++
		effect := "; this hook fails every time and its guard is silently off"
		if strings.HasPrefix(b.Where, "statusLine") {
			effect = "; the status line shows nothing from it"
		}
		d.problem("hook command", detail+effect, "correct the path in "+b.File+" at "+b.Where+", or remove that entry")
	}
	if problems == 0 {
		d.ok("hook commands", fmt.Sprintf("every program found (%d handlers in %d files)", commands, files))
	}
}

// commandScopes records, per event, the distinct warden commands the
// scopes register. Claude Code runs identical handlers from several files
// once, but different ones (another path, another prefix) each time.
type commandScopes map[string]map[string]bool

func (c commandScopes) add(ev, cmd string) {
	if c[ev] == nil {
		c[ev] = map[string]bool{}
	}
	c[ev][cmd] = true
}

// twice lists the events that would run warden more than once, in
// catalogue order.
func (c commandScopes) twice() []string {
	var out []string
	for _, ev := range hookio.Installed() {
		if len(c[string(ev)]) > 1 {
			out = append(out, string(ev))
		}
	}
	return out
}

// registration reports on warden's registration in one file and returns
// warden's handlers there.
func (d *doctor) registration(sc install.Scope, name string, s *install.Settings) map[string][]install.WardenHook {
	reg := install.Registered(s)
	if len(reg) == 0 {
		d.ok(name, s.Path+": warden not registered")
		return nil
	}
	var issues []string
	if missing := install.Missing(reg); len(missing) > 0 {
		names := make([]string, len(missing))
		for i, ev := range missing {
			names[i] = string(ev)
		}
		issues = append(issues, "not registered for "+joinLimit(names, 6, ", "))
	}
	for _, ev := range hookio.Installed() {
		hs := reg[string(ev)]
		if len(hs) > 1 {
			issues = append(issues, fmt.Sprintf("%s registered %d times (warden would run twice)", ev, len(hs)))
		}
		for _, h := range hs {
			if p := install.TimeoutProblem(string(ev), h.Timeout); p != "" {
				issues = append(issues, p)
			}
		}
	}
	if len(issues) > 0 {
		d.problem(name, s.Path+": "+strings.Join(issues, "; "),
			fmt.Sprintf("run `warden install --scope %s` (it adds missing events and resets timeouts)", sc))
		return reg
	}
	d.ok(name, fmt.Sprintf("%s: warden registered for all %d events", s.Path, len(hookio.Installed())))
	return reg
}

// malformed reports entries Claude Code skips (and, for PreToolUse, that
// make it withhold the permissions next to them).
func (d *doctor) malformed(name string, s *install.Settings) {
	var msgs []string
	_ = s.Visit(func(install.Location, *install.Object) {}, func(loc install.Location, msg string) {
		msgs = append(msgs, loc.String()+" "+msg)
	})
	if len(msgs) > 0 {
		d.problem(name, s.Path+": "+joinLimit(msgs, 3, "; "),
			"fix or remove those entries in "+s.Path+" (Claude Code ignores them)")
	}
}

func (d *doctor) claude(ctx context.Context) {
	v, err := d.opts.ClaudeVersion(ctx)
	switch {
	case errors.Is(err, install.ErrClaudeNotFound):
		d.warn("claude", "not found on PATH: its version is not checked and the LLM judges cannot use the claude provider (fine if Claude Code runs from elsewhere)",
			"install Claude Code (https://docs.claude.com/claude-code) or put its directory on PATH")
	case err != nil:
		d.problem("claude", err.Error(), "reinstall Claude Code (https://docs.claude.com/claude-code) or fix its PATH entry")
	default:
		d.ok("claude", v)
		d.hookForm(v)
	}
}

func (d *doctor) store(ctx context.Context) {
	db := paths.DB()
	if _, err := os.Stat(db); errors.Is(err, fs.ErrNotExist) {
		d.problem("store", "no event store at "+db, "run `warden install`")
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	st, err := sqlite.Open(ctx, db)
	if err == nil {
		err = st.Check(ctx)
		st.Close()
	}
	if err != nil {
		d.problem("store", err.Error(),
			"move "+db+" aside (keeping its events) and run `warden install` to start a new store")
		return
	}
	d.ok("store", db+" (integrity ok, schema current, WAL)")
	d.auditChain(ctx, db)
	d.keeper()
	d.declines(ctx, db)
}

// declines shows how many hooks and status lines the keeper declined
// (internal/hookserve): each then ran in its own process, slower but
// exactly as the caller's; a growing count says why (the last reason).
func (d *doctor) declines(ctx context.Context, db string) {
	st, err := sqlite.Open(ctx, db)
	if err != nil {
		return // reported by the store check
	}
	defer st.Close()
	v, _, err := st.Setting(ctx, hookserve.DeclineSetting)
	if err != nil {
		return
	}
	n, at, why := hookserve.ParseDeclines(v)
	if n == 0 {
		d.ok("keeper declines", "none: every hook handed to the keeper ran there")
		return
	}
	d.ok("keeper declines", fmt.Sprintf("%d requests declined (each ran in its own process, a few ms slower); last %s: %s",
		n, at.Local().Format("2006-01-02 15:04"), why))
}

// keeper says whether the store keeper runs. Not running is fine (the next
// hook starts it); it is only information about hook speed.
func (d *doctor) keeper() {
	cfg, _ := config.Load(paths.UserConfig(), "")
	switch running, err := keeper.Running(paths.KeeperLock()); {
	case hookwire.KeeperOff() || !cfg.Hook.Keeper:
		d.info("store keeper", "off (hook.keeper = false or WARDEN_KEEPER=off): each hook opens and closes the store itself, ~2 ms slower")
	case err != nil:
		d.ok("store keeper", "unknown: "+err.Error())
	case running:
		sock := paths.HookSocket()
		if c, err := net.DialTimeout("unix", sock, time.Second); err == nil {
			c.Close()
			d.ok("store keeper", "running, answers hooks on "+sock+": a hook costs about what a bare process does")
		} else {
			d.ok("store keeper", fmt.Sprintf("running, but not answering on %s (%v): hooks run in their own process, a few ms slower", sock, err))
		}
	default:
		d.info("store keeper", "not running; the next hook starts it (it leaves after 30 idle minutes)")
	}
}

// auditChain verifies the hash chain of the event log: a break means rows
// were deleted or changed outside warden.
func (d *doctor) auditChain(ctx context.Context, db string) {
	st, err := sqlite.Open(ctx, db)
	if err != nil {
		return // reported by the store check
	}
	defer st.Close()
	n, brk, err := st.VerifyChain(ctx)
	switch {
	case err != nil:
		d.problem("audit chain", err.Error(), "run `warden audit verify` for details")
	case brk != nil:
		d.problem("audit chain", fmt.Sprintf("broken at row %d: %s", brk.ID, brk.Reason),
			"find out who edited "+db+" (`warden audit export`); the chain cannot be repaired, only explained")
	default:
		d.ok("audit chain", fmt.Sprintf("intact (%d rows)", n))
	}
}

// stateKey checks the key that signs session state: private, or absent
// (created on first use).
func (d *doctor) stateKey() {
	path := paths.StateKey()
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		d.info("state key", path+" not created yet (the first hook creates it)")
	case err != nil:
		d.problem("state key", err.Error(), "check the permissions of "+filepath.Dir(path))
	case fi.Mode().Perm()&0o077 != 0:
		d.problem("state key", fmt.Sprintf("%s has mode %#o, so hooks refuse it and session state is never trusted", path, fi.Mode().Perm()),
			"chmod 600 "+path)
	default:
		d.ok("state key", path+" (private)")
	}
}

func (d *doctor) config() {
	problems := config.Check(paths.UserConfig(), d.opts.Cwd)
	for _, p := range problems {
		d.problem("config", p.String(), "edit "+p.File+"; `warden config check` lists every problem")
	}
	if len(problems) == 0 {
		d.ok("config", "no problems in "+paths.UserConfig()+" or "+paths.ProjectConfig(d.opts.Cwd))
	}
}

// tools notes what optional features need; a missing one is not an error.
func (d *doctor) tools() {
	for _, t := range []struct{ name, use string }{
		{"git", "worktree features"},
		{"tmux", "multi-agent orchestration"},
	} {
		if p, err := exec.LookPath(t.name); err == nil {
			d.ok(t.name, p)
		} else {
			d.info(t.name, "not found on PATH (only needed for "+t.use+")")
		}
	}
}
