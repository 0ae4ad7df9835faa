package install

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/warden-dev/warden/internal/hookclient"
	"github.com/warden-dev/warden/internal/hookio"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/keeper"
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
	// HelpersCopied: a helper binary (warden-judge) was installed beside it.
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
	o, res, s, err := prepare(o)
	if err != nil {
		return nil, err
	}
	bin, err := filepath.Abs(paths.Bin())
	if err != nil {
		return nil, err
	}
	src := o.Source
	if src == "" {
		if src, err = sourceBinary(); err != nil {
			return nil, fmt.Errorf("find the running binary: %w", err)
		}
	}
	// warden and warden-core go together: the settings name warden, which
	// runs warden-core for all but the hooks the keeper answers.
	bins := []helperCopy{{src, bin}, {filepath.Join(filepath.Dir(src), hookclient.CoreName), filepath.Join(filepath.Dir(bin), hookclient.CoreName)}}
	if _, err := os.Stat(bins[1].src); err != nil {
		return nil, fmt.Errorf("%s is missing next to %s: `make build` builds both (or `go build -o DIR/ ./cmd/...`)", hookclient.CoreName, src)
	}
	var copies []helperCopy
	for _, b := range bins {
		act, err := planBinary(b.src, b.dst)
		if err != nil {
			return nil, err
		}
		if act == binaryCopy {
			copies = append(copies, b)
		}
	}
	res.BinaryCopied = len(copies) > 0
	helpers, err := planHelpers(src, bin)
	if err != nil {
		return nil, err
	}
	res.HelpersCopied = len(helpers) > 0
	db := paths.DB()
	if _, err := os.Stat(db); errors.Is(err, fs.ErrNotExist) {
		res.StoreCreated = true
	}

	before := snapshotRegistration(s)
	form, formNote := o.installForm(ctx)
	res.Form = form
	res.Changed, err = Merge(s, Registration{Bin: bin, Events: hookio.Installed(), StatusLine: !o.NoStatusLine, Form: form})
	if err != nil {
		return nil, err
	}
	var data []byte
	if res.Changed {
		data = s.Encode()
		res.Diff = Diff(s.Path, s.Exists, s.Raw, data)
	}
	link := planLink(bin)

	w := o.Stdout
	fmt.Fprintf(w, "warden install, scope %s: %s\n", o.Scope, res.Settings)
	fmt.Fprintln(w, formNote)
	core := filepath.Join(filepath.Dir(bin), hookclient.CoreName)
	if !res.Changed && !res.BinaryCopied && !res.HelpersCopied && !res.StoreCreated && link.Link == "" {
		fmt.Fprintln(w, "already installed, nothing to change")
		fmt.Fprintln(w, "PATH: "+link.Note)
		if o.StartKeeper && !o.DryRun {
			startKeeper(w, core)
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
	for _, b := range copies {
		fmt.Fprintf(w, "binary: copy %s to %s\n", b.src, b.dst)
	}
	for _, h := range helpers {
		fmt.Fprintf(w, "helper: copy %s to %s\n", h.src, h.dst)
	}
	if res.StoreCreated {
		fmt.Fprintf(w, "store: create %s\n", db)
	}
	fmt.Fprintln(w, "PATH: "+link.Note)
	if o.DryRun {
		fmt.Fprintln(w, "dry run: nothing was changed")
		return res, nil
	}
	if err := o.confirm(); err != nil {
		return res, err
	}

	// Check the settings file can be written before installing anything,
	// and install the binary before the settings name it, so Claude Code
	// never runs a hook whose program is not there yet.
	if res.Changed {
		if err := checkWritable(s); err != nil {
			return res, fmt.Errorf("%w; nothing was changed", err)
		}
	}
	if err := privateHome(w, paths.Home()); err != nil {
		return res, err
	}
	if res.BinaryCopied {
		// warden-core first: a hook that starts in between finds the new
		// core beside the old front, which speaks to it the same way.
		for i := len(copies) - 1; i >= 0; i-- {
			if err := copyBinary(copies[i].src, copies[i].dst); err != nil {
				return res, err
			}
			fmt.Fprintf(w, "✓ installed %s\n", copies[i].dst)
		}
		// A keeper still running the old binary keeps working, but the
		// next hook should start one of the new version.
		if err := keeper.Stop(paths.KeeperLock(), 5*time.Second); err != nil {
			fmt.Fprintf(w, "  (the store keeper of the old binary did not stop: %v; it leaves by itself when idle)\n", err)
		}
	}
	for _, h := range helpers {
		if err := copyBinary(h.src, h.dst); err != nil {
			return res, err
		}
		fmt.Fprintf(w, "✓ installed %s\n", h.dst)
	}
	if err := o.OpenStore(ctx, db); err != nil {
		return res, fmt.Errorf("prepare the event store %s: %w", db, err)
	}
	fmt.Fprintf(w, "✓ event store ready at %s\n", db)
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
	if link.Link != "" {
		if err := makeLink(link.Link, bin); err != nil {
			fmt.Fprintf(w, "  (could not link %s: %v; run warden as %s, or add to %s: %s)\n", link.Link, err, bin, startupFile(), pathLine(bin))
		} else {
			res.Linked = link.Link
			fmt.Fprintf(w, "✓ linked %s -> %s\n", link.Link, bin)
		}
	}
	if o.StartKeeper {
		startKeeper(w, core)
	}
	doctor := "warden doctor"
	if res.Linked == "" && !lookPathState(bin).Ours {
		doctor = shellQuote(bin) + " doctor"
	}
	fmt.Fprintf(w, "Next: restart Claude Code (running sessions keep the hooks they started with), then run `%s`.\n", doctor)
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
