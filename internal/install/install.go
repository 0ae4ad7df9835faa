package install

import (
	"bytes"
	"context"
	"fmt"
	"os"

	"github.com/warden-dev/warden/internal/harness"
	"github.com/warden-dev/warden/internal/hookio"
)

// Result says what a run did (or, on a dry run, would do).
type Result struct {
	// Settings is the settings file of the scope.
	Settings string
	// Changed: the settings file needed a change.
	Changed bool
	// Diff is the unified diff of that change.
	Diff string
	// Backup is the copy of the old file ("" when none was made).
	Backup string
	// BinaryCopied: the binary needed copying to paths.Bin().
	BinaryCopied bool
	// HelpersCopied: warden-helper was installed beside it.
	HelpersCopied bool
	// StoreCreated: the event store did not exist yet.
	StoreCreated bool
	// Form is the form warden's hook handlers are written in.
	Form HookForm
	// Linked is the link made on PATH to the installed warden ("" when
	// none was needed or possible).
	Linked string
}

// Install copies the binary to paths.Bin(), creates the event store and
// merges warden's hooks and status line into the scope's settings file.
// Nothing is touched when the settings file cannot be parsed, on a dry run,
// or when the user says no; a second run finds nothing to do.
func Install(ctx context.Context, o Options) (*Result, error) {
	if o.Harness != "" && o.Harness != harness.Claude {
		return installHarness(ctx, o)
	}
	o, res, s, err := prepare(o)
	if err != nil {
		return nil, err
	}
	b, err := planBinaries(o)
	if err != nil {
		return nil, err
	}
	res.BinaryCopied = len(b.copies) > 0
	res.HelpersCopied = b.helper != nil
	res.StoreCreated = b.storeCreated

	before := snapshotRegistration(s)
	form, formNote := o.installForm(ctx)
	res.Form = form
	res.Changed, err = Merge(s, Registration{Bin: b.bin, Events: hookio.Installed(), StatusLine: !o.NoStatusLine, Form: form})
	if err != nil {
		return nil, err
	}
	var data []byte
	if res.Changed {
		data = s.Encode()
		res.Diff = Diff(s.Path, s.Exists, s.Raw, data)
	}

	w := o.Stdout
	fmt.Fprintf(w, "warden install, scope %s: %s\n", o.Scope, res.Settings)
	fmt.Fprintln(w, formNote)
	if !res.Changed && b.nothing() {
		fmt.Fprintln(w, "already installed, nothing to change")
		fmt.Fprintln(w, "PATH: "+b.link.Note)
		if o.StartKeeper && !o.DryRun {
			startKeeper(w, b.core)
		}
		return res, nil
	}
	if res.Changed {
		for _, line := range before.summary(s) {
			fmt.Fprintln(w, "settings: "+line)
		}
		if s.Exists {
			fmt.Fprintln(w, "settings: the old file is backed up next to it first")
		}
		if o.DryRun || o.ShowDiff {
			fmt.Fprint(w, res.Diff)
		} else {
			fmt.Fprintln(w, "settings: (the full diff: warden install --diff, or --dry-run to change nothing)")
		}
	} else {
		fmt.Fprintln(w, "settings: already up to date")
	}
	b.report(w)
	if o.DryRun {
		fmt.Fprintln(w, "dry run: nothing was changed")
		return res, nil
	}
	if err := o.confirm(); err != nil {
		return res, err
	}

	// Check the settings file can be written before installing anything.
	if res.Changed {
		if err := checkWritable(s); err != nil {
			return res, fmt.Errorf("%w; nothing was changed", err)
		}
	}
	if err := b.install(ctx, o, res); err != nil {
		return res, err
	}
	if res.Changed {
		if res.Backup, err = apply(s, data, o); err != nil {
			return res, err
		}
		if res.Backup != "" {
			fmt.Fprintf(w, "✓ backed up the old settings to %s\n", res.Backup)
		}
		fmt.Fprintf(w, "✓ registered %d hook events", len(hookio.Installed()))
		if !o.NoStatusLine {
			fmt.Fprint(w, " and the status line")
		}
		fmt.Fprintf(w, " in %s\n", res.Settings)
	}
	b.linkAndKeeper(o, res)
	fmt.Fprintf(w, "Next: restart Claude Code (running sessions keep the hooks they started with), then run `%s`.\n", b.doctorCommand(res))
	return res, nil
}

// apply backs up the existing file (when there is one) and writes data.
// It first makes sure the file is still what was read: Claude Code or an
// editor may have written it while the user read the diff, and that edit
// must not be lost.
func apply(s *Settings, data []byte, o Options) (backupPath string, err error) {
	cur, err := os.ReadFile(s.Path)
	if exists := err == nil; exists != s.Exists || !bytes.Equal(cur, s.Raw) {
		return "", fmt.Errorf("%s changed while warden was preparing its edit (Claude Code or an editor wrote it); the settings were not changed, run the command again", s.Path)
	}
	if s.Exists {
		if backupPath, err = backup(s, o.Now()); err != nil {
			return "", err
		}
	}
	if err := writeSettings(s, data); err != nil {
		return backupPath, err
	}
	return backupPath, nil
}

// prepare fills in the options' defaults and reads the scope's settings
// file: the common start of Install and Uninstall.
func prepare(o Options) (Options, *Result, *Settings, error) {
	o, err := o.withDefaults()
	if err != nil {
		return o, nil, nil, err
	}
	res := &Result{Settings: SettingsPath(o.Scope, o.Cwd)}
	s, err := ReadSettings(res.Settings)
	if err != nil {
		return o, nil, nil, err
	}
	return o, res, s, nil
}
