package cli

import (
	"context"
	"fmt"
	"github.com/warden-dev/warden/internal/config"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/exitcode"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/service"
)

// newServiceCmd is `warden service install|uninstall|status`: keep
// `warden serve` running under systemd (user unit) or launchd (agent).
func newServiceCmd() *cobra.Command {
	var format string
	var dryRun, noStart bool
	cmd := &cobra.Command{
		Use:   "service install|uninstall|status",
		Short: "Keep `warden serve` running: a systemd user unit (Restart=always) or a launchd agent (KeepAlive)",
	}
	cmd.PersistentFlags().StringVar(&format, "format", service.DefaultFormat(), "systemd or launchd")
	target := func() (service.Target, error) {
		if format != service.Systemd && format != service.Launchd {
			return service.Target{}, fmt.Errorf("--format %q: use systemd or launchd", format)
		}
		home, err := os.UserHomeDir()
		if err != nil {
			return service.Target{}, err
		}
		t := service.Target{Format: format, Path: service.PathFor(format, home, os.Getenv("XDG_CONFIG_HOME"))}
		if !noStart && !dryRun && managerPresent(format) {
			t.Run = service.ExecRun
		}
		return t, nil
	}
	install := &cobra.Command{
		Use:   "install [--format systemd|launchd] [--dry-run] [--no-start]",
		Short: "Write the unit or agent for the installed warden and start it",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			t, err := target()
			if err != nil {
				return err
			}
			bin := paths.Bin()
			if _, err := os.Stat(bin); err != nil && !dryRun {
				return fmt.Errorf("warden is not installed at %s; run `make install` (or `warden install`) first", bin)
			}
			env := map[string]string{"PATH": os.Getenv("PATH")}
			if h := os.Getenv("WARDEN_HOME"); h != "" {
				env["WARDEN_HOME"] = h
			}
			// The shared store's URL set in this shell reaches the service
			// too (else it would run on SQLite without a word); the unit
			// file is written 0600 since the URL may hold a password.
			dbURL := strings.TrimSpace(os.Getenv(config.DatabaseURLEnv))
			if dbURL != "" {
				env[config.DatabaseURLEnv] = dbURL
			}
			spec := service.Spec{Binary: bin, Env: env, LogDir: filepath.Dir(paths.DaemonLog())}
			content, err := service.Render(format, spec)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if dryRun {
				if dbURL != "" {
					spec.Env[config.DatabaseURLEnv] = "<" + config.DatabaseURLEnv + ", not shown>"
					if shown, err := service.Render(format, spec); err == nil {
						content = shown
					}
				}
				fmt.Fprintf(out, "# would write %s\n%s", t.Path, content)
				return nil
			}
			if dbURL != "" {
				fmt.Fprintf(out, "the service uses the shared store from %s (kept in the unit file, mode 0600)\n", config.DatabaseURLEnv)
			}
			changed, err := service.Install(context.Background(), t, content)
			if err != nil {
				return err
			}
			verb := "unchanged"
			if changed {
				verb = "written"
			}
			fmt.Fprintf(out, "%s %s\n", t.Path, verb)
			if t.Run == nil {
				fmt.Fprintf(out, "not started (%s); start it with %s\n", why(format, noStart), startHint(format, t.Path))
			} else {
				fmt.Fprintln(out, "started; check with `warden service status` and `warden serve status`")
			}
			return nil
		},
	}
	install.Flags().BoolVar(&dryRun, "dry-run", false, "print the file instead of writing it")
	install.Flags().BoolVar(&noStart, "no-start", false, "write the file only")
	uninstall := &cobra.Command{
		Use:   "uninstall",
		Short: "Stop the service and remove its file",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			t, err := target()
			if err != nil {
				return err
			}
			removed, err := service.Uninstall(context.Background(), t)
			if err != nil {
				return err
			}
			if !removed {
				fmt.Fprintf(cmd.OutOrStdout(), "no service installed (%s)\n", t.Path)
				return nil
			}
			fmt.Fprintf(cmd.OutOrStdout(), "removed %s\n", t.Path)
			return nil
		},
	}
	status := &cobra.Command{
		Use:   "status",
		Short: "Whether the service is installed and what the service manager says (exit 3 when not installed)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			t, err := target()
			if err != nil {
				return err
			}
			installed, state := service.Status(context.Background(), t)
			fmt.Fprintf(cmd.OutOrStdout(), "%s: %s (%s)\n", format, state, t.Path)
			if !installed {
				return ExitError{Code: exitcode.No}
			}
			return nil
		},
	}
	cmd.AddCommand(install, uninstall, status)
	return cmd
}

func managerPresent(format string) bool {
	name := "systemctl"
	if format == service.Launchd {
		name = "launchctl"
	}
	_, err := exec.LookPath(name)
	return err == nil
}

func why(format string, noStart bool) string {
	if noStart {
		return "--no-start"
	}
	if format == service.Launchd {
		return "launchctl not found"
	}
	return "systemctl not found"
}

func startHint(format, path string) string {
	if format == service.Launchd {
		return "`launchctl bootstrap gui/$(id -u) " + path + "`"
	}
	return "`systemctl --user daemon-reload && systemctl --user enable --now warden.service`"
}
