package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/hookserve"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/keeper"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// keeperCmd is started by hooks, detached; users have no reason to run it,
// so it is hidden from help.
func keeperCmd() *cobra.Command {
	var idle, quiet, poll time.Duration
	var noServe bool
	cmd := &cobra.Command{
		Use:    "keeper",
		Short:  "Hold the store open and answer hooks so they start fast (started by hooks)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			withTimerSlack() // first: it may exec this binary again
			oneProc()
			residentGC()
			defer keeperProfile()()
			ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
			defer stop()
			o := keeper.Options{DBPath: paths.DB(), LockPath: paths.KeeperLock(), Idle: idle, Quiet: quiet, Poll: poll}
			if self, err := os.Executable(); err == nil {
				o.Binary = self
			}
			if !noServe {
				// The shipper runs beside the hook server (serveHooks), so
				// only then is there one to wait for.
				o.Serve, o.Backlog, o.Log = serveHooks, shipBacklog, os.Stderr
			}
			err := keeper.Run(ctx, o)
			if errors.Is(err, keeper.ErrStoreGone) {
				noteKeeperLeft(err)
				return nil // the next hook opens (or makes) what is there now
			}
			if errors.Is(err, keeper.ErrRunning) {
				return nil
			}
			return err
		},
	}
	cmd.Flags().DurationVar(&idle, "idle", 30*time.Minute, "exit after this long without a new event (and, with a shared store, nothing left to ship)")
	cmd.Flags().BoolVar(&noServe, "no-serve", false, "only keep the store open; do not answer hooks")
	// For bench/hook-latency's pause phase, which cannot wait 5 s a round.
	cmd.Flags().DurationVar(&quiet, "quiet", 5*time.Second, "checkpoint once writes have stopped for this long")
	cmd.Flags().DurationVar(&poll, "poll", 2*time.Second, "look at the store this often")
	return cmd
}

// serveHooks answers `warden hook` on paths.HookSocket() with a store of
// its own: the keeper's connection stays pinned for its checkpoints, and
// hooks served side by side get a few. The store closes only after the
// server drained (ListenAndServe returns once no request runs).
func serveHooks(ctx context.Context) error {
	// Resident: checkpoints are the keeper loop's, never a hook's.
	st, err := sqlite.OpenResident(ctx, paths.DB())
	if err != nil {
		return err
	}
	defer st.Close()
	// Connections stay open between requests: opening one costs ~0.5 ms
	// (and parsing the schema), and database/sql keeps only 2 idle by
	// default, so a burst of parallel hooks would open and close them.
	st.SetMaxOpenConns(8)
	st.SetMaxIdleConns(8)
	defer startShipper(ctx)() // stops with ctx
	defer startOTel(ctx)()
	return hookserve.ListenAndServe(ctx, paths.HookSocket(), hookserve.Options{DBPath: paths.DB(), Store: st, Log: os.Stderr})
}

// oneProc runs the keeper's Go code on one CPU (unless GOMAXPROCS says
// otherwise). A hook is ~0.5 ms of work in a burst of goroutines (the
// request, database/sql's context watchers, the handlers' deadline); with
// a second P idle, the runtime wakes a thread to steal each one and parks
// it again, while the machine's other CPU is what the hook's own client
// process and Claude Code need. Measured on the 2-CPU VM, per hook: 35–42
// context switches and 1.41–1.49 ms of keeper CPU with two Ps, 13–15 and
// 1.23–1.27 ms with one. The hooks of one session run one at a time
// anyway (their lock), and one CPU serves well over 1,000 hooks a second.
func oneProc() {
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
}

// residentGC lets the keeper's heap grow to 5× what is live (GOGC=400,
// unless GOGC is set) before collecting, within a 64 MiB limit (unless
// GOMEMLIMIT is set). A served hook allocates ~70 KB and leaves almost
// nothing behind: the live heap stays at 1–2 MB, so at Go's default the
// heap reaches its 4 MB minimum goal every ~35 hooks and a collection
// costs ~1.3 ms of CPU on the keeper's one P — ~40 µs a hook, in the
// queue of the hooks behind it. At 400 the goal is 16 MB: one collection
// every ~200 hooks, ~7 µs a hook, for ~12 MB more resident memory. The
// limit keeps a live heap that did grow (a large transcript, a judge's
// reply) from taking five times its size.
func residentGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(64 << 20)
	}
}

// noteKeeperLeft appends why the keeper left to paths.KeeperLog(): started
// detached by a hook, it has no stderr anyone reads, and a store removed
// under it must not go unsaid. When warden's whole home is gone (an
// uninstall, a test's home cleaned up) there is no one to tell, and making
// the home again just to log would leave a stray folder behind: only the
// logs folder is made, inside a home that still exists.
func noteKeeperLeft(err error) {
	p := paths.KeeperLog()
	if err := os.Mkdir(filepath.Dir(p), 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return
	}
	f, ferr := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if ferr != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "%s warden keeper (pid %d): %v; left (the next hook opens or makes the store at that path)\n",
		time.Now().UTC().Format(time.RFC3339), os.Getpid(), err)
}
