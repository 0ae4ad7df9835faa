package doctor

import "github.com/warden-dev/warden/internal/install"

// registeredForm notes the form of one of warden's registered handlers.
func (d *doctor) registeredForm(h install.WardenHook) {
	if d.forms == nil {
		d.forms = map[install.HookForm]bool{}
	}
	if h.Exec() {
		d.forms[install.ExecForm] = true
	} else {
		d.forms[install.ShellForm] = true
	}
}

// hookForm checks the registered form against the Claude Code that runs
// it (version is `claude --version`): exec form on a release before
// install.ExecFormSince runs warden without arguments, so no hook does anything;
// shell form on a newer one works but starts a shell for every event.
func (d *doctor) hookForm(version string) {
	v, ok := install.ParseVersion(version)
	if !ok {
		return
	}
	switch exec := install.VersionAtLeast(v, install.ExecFormSince); {
	case !exec && d.forms[install.ExecForm]:
		d.problem("hook form", "warden's hooks are in exec form (\"args\"), which Claude Code "+v+" ignores: it runs warden without arguments and no hook takes effect (exec form needs "+install.ExecFormSince+")",
			"run `warden install` (it writes shell form for this Claude Code), or upgrade Claude Code")
	case exec && d.forms[install.ShellForm] && install.HomePrefix() == "":
		d.info("hook form", "warden's hooks are in shell form: Claude Code starts a shell before warden on every event; `warden install` writes exec form, which Claude Code "+v+" runs directly")
	case exec && d.forms[install.ExecForm]:
		d.ok("hook form", "exec form: Claude Code runs warden without a shell")
	}
}
