package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/paths"
)

// newLogsCmd is `warden logs daemon [-f]`: the daemon's JSON log.
func newLogsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "logs daemon [-f] [-n N]",
		Short: "The daemon's log (JSON lines); -f follows it",
	}
	var follow bool
	var lines int
	d := &cobra.Command{
		Use:   "daemon [-f] [-n N]",
		Short: "Print the last lines of $WARDEN_HOME/logs/daemon.log; -f keeps printing new ones (across rotation)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			return tailLog(ctx, cmd.OutOrStdout(), paths.DaemonLog(), lines, follow)
		},
	}
	d.Flags().BoolVarP(&follow, "follow", "f", false, "keep printing new lines until interrupted")
	d.Flags().IntVarP(&lines, "lines", "n", 50, "print the last N lines first")
	cmd.AddCommand(d)
	return cmd
}

// tailLog prints the last n lines of path and, with follow, what is
// appended, reopening the file when the daemon rotates it.
func tailLog(ctx context.Context, w io.Writer, path string, n int, follow bool) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) && !follow {
		return fmt.Errorf("no daemon log at %s: the daemon has not run with this WARDEN_HOME (start it with `warden serve`)", path)
	}
	var last []string
	var off int64
	if err == nil {
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		for sc.Scan() {
			last = append(last, sc.Text())
			if len(last) > n {
				last = last[1:]
			}
		}
		off, _ = f.Seek(0, io.SeekCurrent)
		f.Close()
	}
	for _, l := range last {
		fmt.Fprintln(w, l)
	}
	if !follow {
		return nil
	}
	var prev os.FileInfo
	if fi, err := os.Stat(path); err == nil {
		prev = fi
	}
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		fi, err := os.Stat(path)
		if err != nil {
			continue
		}
		if prev == nil || !os.SameFile(prev, fi) || fi.Size() < off {
			off = 0 // rotated or truncated: the new file from its start
		}
		prev = fi
		if fi.Size() == off {
			continue
		}
		f, err := os.Open(path)
		if err != nil {
			continue
		}
		if _, err := f.Seek(off, io.SeekStart); err == nil {
			m, _ := io.Copy(w, f)
			off += m
		}
		f.Close()
	}
}
