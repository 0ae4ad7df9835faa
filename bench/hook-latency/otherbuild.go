package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/warden-dev/warden/internal/store/keeper"
)

// -warden-b measures a second warden build beside -warden in the same
// rounds of the Node phase: each round runs a burst of -warden, one of
// -warden-b and one of bare Go, the order rotated. Two builds measured in
// runs one after the other differ by whatever else the machine did in
// between (on a shared 2-CPU machine, more than most changes are worth);
// in the same rounds both meet the same load. Each build has a home, a
// store and a keeper of its own, so neither serves the other's hooks.

// startOther sets up the -warden-b build's home under dir, creates its
// store and starts its keeper; stop ends the keeper.
func (b *bench) startOther(o options, dir string) (stop func(), err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	other, err := setup(dir, o.noUserConfig)
	if err != nil {
		return nil, err
	}
	if o.keeperProfile != "" {
		other.env = append(other.env, "WARDEN_KEEPER_CPUPROFILE="+o.keeperProfile+".b")
	}
	hook := variant{name: "warden -warden-b", path: o.wardenB, args: []string{"hook", "--harness", "claude"}, warden: true, event: preToolUse}
	// The first hook creates the store; the next finds no keeper and
	// starts one, as in the keeper phase.
	for range 2 {
		if _, err := other.spawn(hook); err != nil || other.stderrEmpty() != nil {
			return nil, errors.Join(errors.New("-warden-b: the first hooks"), err, other.stderrEmpty())
		}
	}
	lock := filepath.Join(filepath.Dir(other.db), "locks", "keeper.lock")
	if !keeperUp(lock) {
		return nil, fmt.Errorf("-warden-b: no store keeper came up after a hook (is warden-core beside %s?)", o.wardenB)
	}
	b.other = other
	return func() {
		keeper.Stop(lock, 10*time.Second)
		other.stdin.Close()
		other.stdout.Close()
		other.stderr.Close()
		b.other = nil
	}, nil
}

// otherKeeperPID is the -warden-b keeper's pid (0 without one).
func (b *bench) otherKeeperPID() int {
	if b.other == nil {
		return 0
	}
	return keeperPID(filepath.Join(filepath.Dir(b.other.db), "locks", "keeper.lock"))
}

// checkRows fails unless the store holds want rows, runs of them added by
// this phase of n callers, all clean allows.
func (b *bench) checkRows(want, runs, n int) error {
	total, bad, err := b.settledRows(nil, want)
	switch {
	case err != nil:
		return err
	case total != want:
		return fmt.Errorf("-warden-b, %d callers: %d runs, the store holds %d rows, want %d", n, runs, total, want)
	case bad > 0:
		return fmt.Errorf("-warden-b, %d callers: %d rows are not a clean allow", n, bad)
	}
	return nil
}
