package install

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/warden-dev/warden/internal/harness"
	"github.com/warden-dev/warden/internal/paths"
)

// planHarness is the change an install (or uninstall) makes to CLI h's
// own configuration.
func planHarness(h harness.Name, bin string, install bool) ([]fileChange, error) {
	switch h {
	case harness.Codex:
		return planCodex(bin, install)
	case harness.Gemini:
		return planGemini(bin, install)
	case harness.Copilot:
		return planCopilot(bin, install)
	}
	return nil, fmt.Errorf("no install for harness %q", h)
}

// installHarness is Install for another CLI than Claude Code: the same
// binaries and store, and warden's hooks merged into that CLI's own hook
// configuration (see planCodex, planGemini, planCopilot).
func installHarness(ctx context.Context, o Options) (*Result, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	b, err := planBinaries(o)
	if err != nil {
		return nil, err
	}
	changes, err := planHarness(o.Harness, b.bin, true)
	if err != nil {
		return nil, err
	}
	res := &Result{BinaryCopied: len(b.copies) > 0, HelpersCopied: b.helper != nil, StoreCreated: b.storeCreated}
	w := o.Stdout
	fmt.Fprintf(w, "warden install --harness %s (%s)\n", o.Harness, o.Harness.Title())
	if len(changes) == 0 && b.nothing() {
		fmt.Fprintln(w, "already installed, nothing to change")
		return res, nil
	}
	if !reportChanges(o, res, changes, "install") {
		b.report(w)
		fmt.Fprintln(w, "dry run: nothing was changed")
		return res, nil
	}
	b.report(w)
	if err := o.confirm(); err != nil {
		return res, err
	}
	if err := b.install(ctx, o, res); err != nil {
		return res, err
	}
	if err := applyChanges(o, res, changes); err != nil {
		return res, err
	}
	b.linkAndKeeper(o, res)
	fmt.Fprintf(w, "Next: start a new %s session (running ones keep the hooks they started with), then run `%s`.\n", o.Harness.Title(), b.doctorCommand(res))
	return res, nil
}

// uninstallHarness removes exactly what installHarness added to the CLI's
// configuration; binaries, store and link stay (Claude Code may use them).
func uninstallHarness(_ context.Context, o Options) (*Result, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	bin, err := filepath.Abs(paths.Bin())
	if err != nil {
		return nil, err
	}
	changes, err := planHarness(o.Harness, bin, false)
	if err != nil {
		return nil, err
	}
	res := &Result{}
	w := o.Stdout
	fmt.Fprintf(w, "warden uninstall --harness %s (%s)\n", o.Harness, o.Harness.Title())
	if len(changes) == 0 {
		fmt.Fprintln(w, "warden is not installed there, nothing to change")
		return res, nil
	}
	if !reportChanges(o, res, changes, "uninstall") {
		fmt.Fprintln(w, "dry run: nothing was changed")
		return res, nil
	}
	if err := o.confirm(); err != nil {
		return res, err
	}
	if err := applyChanges(o, res, changes); err != nil {
		return res, err
	}
	if h := o.Harness; h == harness.Copilot {
		_ = os.Remove(filepath.Dir(CopilotHookFile())) // the hooks directory, when warden's file was all it held
	}
	fmt.Fprintf(w, "Next: start a new %s session so running ones drop the hooks.\n", o.Harness.Title())
	return res, nil
}

// reportChanges prints the summary (and the diff on --diff or --dry-run)
// and fills res; false on a dry run.
func reportChanges(o Options, res *Result, changes []fileChange, verb string) bool {
	w := o.Stdout
	var diffs []string
	for _, c := range changes {
		fmt.Fprintf(w, "%s: %s", c.s.Path, c.what)
		if c.s.Exists {
			fmt.Fprint(w, " (the old file is backed up next to it first)")
		}
		fmt.Fprintln(w)
		diffs = append(diffs, c.diff())
	}
	res.Changed = true
	res.Settings = changes[0].s.Path
	res.Diff = strings.Join(diffs, "")
	if o.DryRun || o.ShowDiff {
		fmt.Fprint(w, res.Diff)
	} else {
		fmt.Fprintf(w, "(the full diff: warden %s --harness %s --diff, or --dry-run to change nothing)\n", verb, o.Harness)
	}
	return !o.DryRun
}

// applyChanges writes every file, each backed up first.
func applyChanges(o Options, res *Result, changes []fileChange) error {
	for _, c := range changes {
		backup, err := c.apply(o)
		if err != nil {
			return err
		}
		if backup != "" {
			fmt.Fprintf(o.Stdout, "✓ backed up %s to %s\n", c.s.Path, backup)
			if res.Backup == "" {
				res.Backup = backup
			}
		}
		if c.remove {
			fmt.Fprintf(o.Stdout, "✓ removed %s\n", c.s.Path)
		} else {
			fmt.Fprintf(o.Stdout, "✓ wrote %s\n", c.s.Path)
		}
	}
	return nil
}
