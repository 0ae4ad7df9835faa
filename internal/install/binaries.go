package install

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/sibling"
	"github.com/warden-dev/warden/internal/store/keeper"
)

// binaries is what an install puts in place besides a CLI's settings: the
// warden binaries, the event store and a link on PATH. Every harness's
// install shares it.
type binaries struct {
	bin, core, db string
	copies        []fileCopy // warden and warden-core
	helper        *fileCopy  // warden-helper, when beside the source and not installed yet
	retired       []string   // binaries of an earlier install to remove (sibling.Retired)
	storeCreated  bool
	link          linkAction
}

// planBinaries finds what needs copying or creating.
func planBinaries(o Options) (*binaries, error) {
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
	b := &binaries{bin: bin, core: filepath.Join(filepath.Dir(bin), sibling.Core), db: paths.DB()}
	// warden and warden-core go together: the settings name warden, which
	// runs warden-core for all but the hooks the keeper answers.
	bins := []fileCopy{{src, bin}, {filepath.Join(filepath.Dir(src), sibling.Core), b.core}}
	if _, err := os.Stat(bins[1].src); err != nil {
		return nil, fmt.Errorf("%s is missing next to %s: `make build` builds both (or `go build -o DIR/ ./cmd/...`)", sibling.Core, src)
	}
	for _, c := range bins {
		act, err := planBinary(c.src, c.dst)
		if err != nil {
			return nil, err
		}
		if act == binaryCopy {
			b.copies = append(b.copies, c)
		}
	}
	if b.helper, err = planHelper(src, bin); err != nil {
		return nil, err
	}
	b.retired = planRetired(bin)
	if _, err := os.Stat(b.db); errors.Is(err, fs.ErrNotExist) {
		b.storeCreated = true
	}
	b.link = planLink(bin)
	return b, nil
}

// nothing reports whether the binaries, store and link are all in place.
func (b *binaries) nothing() bool {
	return len(b.copies) == 0 && b.helper == nil && len(b.retired) == 0 && !b.storeCreated && b.link.Link == ""
}

// report prints what apply will do.
func (b *binaries) report(w io.Writer) {
	for _, c := range b.copies {
		fmt.Fprintf(w, "binary: copy %s to %s\n", c.src, c.dst)
	}
	if h := b.helper; h != nil {
		fmt.Fprintf(w, "helper: copy %s to %s\n", h.src, h.dst)
	}
	for _, r := range b.retired {
		fmt.Fprintf(w, "binary: remove %s (an earlier version's; %s runs its commands now)\n", r, sibling.Helper)
	}
	if b.storeCreated {
		fmt.Fprintf(w, "store: create %s\n", b.db)
	}
	fmt.Fprintln(w, "PATH: "+b.link.Note)
}

// install copies the binaries and prepares the store: before any settings
// name the binary, so no CLI runs a hook whose program is not there yet.
func (b *binaries) install(ctx context.Context, o Options, res *Result) error {
	w := o.Stdout
	if err := privateHome(w, paths.Home()); err != nil {
		return err
	}
	if len(b.copies) > 0 {
		// warden-core first: a hook that starts in between finds the new
		// core beside the old front, which speaks to it the same way.
		for i := len(b.copies) - 1; i >= 0; i-- {
			if err := copyBinary(b.copies[i].src, b.copies[i].dst); err != nil {
				return err
			}
			fmt.Fprintf(w, "✓ installed %s\n", b.copies[i].dst)
		}
		// A keeper still running the old binary keeps working, but the
		// next hook should start one of the new version.
		if err := keeper.Stop(paths.KeeperLock(), 5*time.Second); err != nil {
			fmt.Fprintf(w, "  (the store keeper of the old binary did not stop: %v; it leaves by itself when idle)\n", err)
		}
	}
	if h := b.helper; h != nil {
		if err := copyBinary(h.src, h.dst); err != nil {
			return err
		}
		fmt.Fprintf(w, "✓ installed %s\n", h.dst)
	}
	// After the new binaries are in place: the new warden-core never runs
	// these, and an old one left running finds none of them stale.
	for _, r := range b.retired {
		if err := os.Remove(r); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return NewFSError("remove the old binary", r, err)
		}
		fmt.Fprintf(w, "✓ removed %s (%s runs its commands now)\n", r, sibling.Helper)
	}
	if err := o.OpenStore(ctx, b.db); err != nil {
		return fmt.Errorf("prepare the event store %s: %w", b.db, err)
	}
	fmt.Fprintf(w, "✓ event store ready at %s\n", b.db)
	return nil
}

// linkAndKeeper makes the PATH link and starts the keeper, after the
// settings are written.
func (b *binaries) linkAndKeeper(o Options, res *Result) {
	w := o.Stdout
	if b.link.Link != "" {
		if err := makeLink(b.link.Link, b.bin); err != nil {
			fmt.Fprintf(w, "  (could not link %s: %v; run warden as %s, or add to %s: %s)\n", b.link.Link, err, b.bin, StartupFile(), PathLine(b.bin))
		} else {
			res.Linked = b.link.Link
			fmt.Fprintf(w, "✓ linked %s -> %s\n", b.link.Link, b.bin)
		}
	}
	if o.StartKeeper {
		startKeeper(w, b.core)
	}
}

// doctorCommand is how the user runs doctor after this install.
func (b *binaries) doctorCommand(res *Result) string {
	if res.Linked == "" && !LookPathState(b.bin).Ours {
		return ShellQuote(b.bin) + " doctor"
	}
	return "warden doctor"
}
