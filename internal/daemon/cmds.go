package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/exitcode"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/version"
)

// ExitNotRunning is the exit code of a command that needs the daemon when
// none runs (ErrNotRunning carries it).
const ExitNotRunning = exitcode.No

// Commands are `serve` and the commands that talk to the daemon's API:
// they need net/http, which warden-core never links, so warden-helper's
// tree carries them (internal/helper/cmds). Users type `warden serve …`,
// `warden task …`.
func Commands() []*cobra.Command { return []*cobra.Command{newServeCmd(), newTaskCmd(), newTokenCmd()} }

// NewRoot is a tree of Commands alone (tests run it in process).
func NewRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "warden",
		Short:         "warden's daemon and the commands that talk to it",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(Commands()...)
	return root
}

// Main runs the tree and returns the exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	root := NewRoot()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	return exitcode.Report(stderr, root.Execute())
}

func newServeCmd() *cobra.Command {
	var o Options
	var logStderr, demoMode, demoKeep bool
	cmd := &cobra.Command{
		Use:   "serve [--addr 127.0.0.1:8765] [--tls-cert F --tls-key F] [--insecure-public] | serve --demo [--keep]",
		Short: "Run the daemon: hooks, task queue, scheduler, REST API, webhooks, metrics",
		Long: `Run warden's resident daemon in the foreground until SIGTERM or Ctrl-C.

It takes the store keeper's lock and socket, so while it runs it answers
every hook and status line (exactly as the on-demand keeper does; when it
stops, the keeper comes back on the next hook). It runs the task queue's
scheduler (serve.max_agents at once, held while a quota window is critical)
and serves the API on serve.addr (loopback by default; any other address
needs TLS or --insecure-public). Logs are JSON lines in
$WARDEN_HOME/logs/daemon.log (warden logs daemon -f).

It re-reads config.toml on SIGHUP and within two seconds of a save, and
applies what can change live; warden config check says what needs a
restart, and when a reload was refused.

--demo runs one task end to end instead, without a subscription or the
network: a throwaway project and home, the real Claude Code pointed at a
scripted model warden serves on a loopback port, a warden serve of its
own; it prints the task going queued, working, done, then its diff, and
removes everything (--keep leaves it).

When the store the daemon last ran on is missing, or another one is in
its place (a hook makes a new empty store when the file is gone), it
refuses to start and says what it held; put the file back, or give
--new-store to go on with the new one. A store file removed or replaced
while the daemon runs stops it with an error (exit 1).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
			defer stop()
			if demoMode {
				return runDemo(ctx, cmd.OutOrStdout(), demoKeep)
			}
			cfg, problems := config.Load(paths.UserConfig(), "")
			for _, p := range problems {
				fmt.Fprintln(cmd.ErrOrStderr(), "warden: config:", p)
			}
			o.Home, o.DB, o.Lock, o.Socket = paths.Home(), paths.DB(), paths.KeeperLock(), paths.HookSocket()
			o.LogPath, o.StatePath, o.TokenPath, o.TaskDir = paths.DaemonLog(), paths.ServeState(), paths.CLIToken(), paths.TaskDir()
			o.Config, o.Env, o.Version, o.ConfigPath = cfg, os.Environ(), version.String(), paths.UserConfig()
			o.Stderr, o.DatabaseURL = cmd.ErrOrStderr(), databaseURL(cfg)
			if logStderr {
				o.LogTo = cmd.ErrOrStderr()
			}
			o.Ready = func(addr string) {
				fmt.Fprintf(cmd.OutOrStdout(), "warden serve: listening on %s (pid %d); logs in %s\n", addr, os.Getpid(), o.LogPath)
			}
			return Run(ctx, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Addr, "addr", "", "listen address (default serve.addr, 127.0.0.1:8765)")
	f.StringVar(&o.TLSCert, "tls-cert", "", "TLS certificate (PEM)")
	f.StringVar(&o.TLSKey, "tls-key", "", "TLS private key (PEM)")
	f.BoolVar(&o.InsecurePublic, "insecure-public", false, "serve plain HTTP on a non-loopback address (tokens travel in clear)")
	f.BoolVar(&logStderr, "log-stderr", false, "also write the log to stderr")
	f.BoolVar(&o.NewStore, "new-store", false, "start although the store is missing or not the one the daemon last ran on (its tasks and tokens are then gone)")
	f.BoolVar(&demoMode, "demo", false, "run one task end to end against a built-in scripted model, in a throwaway project (no subscription needed)")
	f.BoolVar(&demoKeep, "keep", false, "with --demo: keep the demo's directory")
	cmd.AddCommand(newServeStatusCmd())
	return cmd
}

func newServeStatusCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status [--json]",
		Short: "Whether the daemon runs, where, and its scheduler's state (exit 3 when it does not run)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := NewClient(paths.ServeState(), paths.CLIToken())
			if err != nil {
				return err
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			var sys struct {
				Systems []map[string]any `json:"systems"`
			}
			if err := c.Do(ctx, "GET", "/api/systems", nil, &sys); err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				return printJSON(out, map[string]any{"url": c.Base, "systems": sys.Systems})
			}
			for _, s := range sys.Systems {
				if self, _ := s["self"].(bool); !self {
					// Another worker of the pool, as its heartbeat says.
					state := "up"
					if stale, _ := s["stale"].(bool); stale {
						state = "STALE (missed heartbeats; its tasks go to the others)"
					}
					fmt.Fprintf(out, "worker %v on %v (pid %v): %v of %v agents, load %v, heartbeat %v, %s\n",
						s["name"], s["host"], s["pid"], s["agents"], s["max_agents"], s["load1"], s["heartbeat"], state)
					continue
				}
				fmt.Fprintf(out, "warden serve: running at %s as system %v (pid %v, %v, since %v)\n", c.Base, s["name"], s["pid"], s["version"], s["started"])
				if f, ok := s["store_fault"].(map[string]any); ok {
					// The one thing to act on: first, in capitals.
					fmt.Fprintf(out, "STORE FAULT since %v, taking no new work: the store %v: %v; %v\n", f["since"], f["store"], f["reason"], f["fix"])
				}
				if sc, ok := s["scheduler"].(map[string]any); ok {
					fmt.Fprintf(out, "scheduler: %v of %v agents running, last step %v, watchdog restarts %v\n",
						sc["running"], sc["max_agents"], sc["last_step"], sc["watchdog_restarts"])
					if h, ok := sc["held"].(map[string]any); ok {
						fmt.Fprintf(out, "HOLDING new work until %v: %v\n", h["until"], h["reason"])
					}
				}
				if tc, ok := s["tasks"].(map[string]any); ok {
					fmt.Fprintf(out, "tasks: %v queued, %v running, %v paused, %v done, %v failed, %v cancelled\n",
						tc["queued"], tc["running"], tc["paused"], tc["done"], tc["failed"], tc["cancelled"])
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "JSON output")
	return cmd
}

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
