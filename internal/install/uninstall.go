package install

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/warden-dev/warden/internal/harness"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/sibling"
)

// Uninstall removes from the scope's settings file exactly what Install
// added: warden's hook handlers (and the groups, event keys and "hooks"
// object that leaves empty) and warden's status line (a wrapped command is
// restored). The binaries and the store stay; the output says how to delete
// them.
func Uninstall(ctx context.Context, o Options) (*Result, error) {
	if o.Harness != "" && o.Harness != harness.Claude {
		return uninstallHarness(ctx, o)
	}
	o, res, s, err := prepare(o)
	if err != nil {
		return nil, err
	}
	before := snapshotRegistration(s)
	if res.Changed, err = Unmerge(s); err != nil {
		return nil, err
	}
	w := o.Stdout
	fmt.Fprintf(w, "warden uninstall, scope %s: %s\n", o.Scope, res.Settings)
	if !res.Changed {
		fmt.Fprintln(w, "warden is not installed there, nothing to change")
		otherScopes(o, res.Settings)
		return res, nil
	}
	data := s.Encode()
	res.Diff = Diff(s.Path, s.Exists, s.Raw, data)
	for _, line := range before.summary(s) {
		fmt.Fprintln(w, "settings: "+line)
	}
	if o.DryRun || o.ShowDiff {
		fmt.Fprint(w, res.Diff)
	} else {
		fmt.Fprintln(w, "settings: (the full diff: warden uninstall --diff, or --dry-run to change nothing)")
	}
	if o.DryRun {
		fmt.Fprintln(w, "dry run: nothing was changed")
		return res, nil
	}
	if err := o.confirm(); err != nil {
		return res, err
	}
	if err := checkWritable(s); err != nil {
		return res, fmt.Errorf("%w; nothing was changed", err)
	}
	if res.Backup, err = apply(s, data, o); err != nil {
		return res, err
	}
	if res.Backup != "" {
		fmt.Fprintf(w, "✓ backed up the old settings to %s\n", res.Backup)
	}
	fmt.Fprintf(w, "✓ removed warden's hooks and status line from %s\n", res.Settings)
	otherScopes(o, res.Settings)
	if o.Scope == User {
		for _, l := range removeLink(paths.Bin()) {
			fmt.Fprintf(w, "✓ removed the link %s\n", l)
		}
	}
	fmt.Fprintf(w, "Left in place: the binaries in %s (%s) and the store %s (with your config in %s).\n",
		filepath.Dir(paths.Bin()), strings.Join(sibling.All, ", "), paths.DB(), paths.Home())
	fmt.Fprintf(w, "To delete them too: rm -r %s\n", ShellQuote(paths.Home()))
	fmt.Fprintln(w, "Next: restart Claude Code so running sessions drop the hooks.")
	return res, nil
}

// otherScopes mentions the scopes where warden is still registered, so
// "uninstall" does not leave the user wondering why hooks still run.
func otherScopes(o Options, done string) {
	for _, sc := range Scopes {
		if SettingsPath(sc, o.Cwd) == done { // also project scope run from ~
			continue
		}
		s, err := ReadSettings(SettingsPath(sc, o.Cwd))
		if err != nil || !s.Exists {
			continue
		}
		if len(Registered(s)) > 0 {
			fmt.Fprintf(o.Stdout, "note: warden is still registered in %s (warden uninstall --scope %s)\n", s.Path, sc)
		}
	}
}
