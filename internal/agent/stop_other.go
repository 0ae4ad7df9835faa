//go:build !unix

package agent

import "context"

// closeWindow closes the task's window; without unix signals there is no
// waiting for the process (tmux itself is unix-only).
func closeWindow(ctx context.Context, tm *Tmux, w *Window) error { return tm.KillWindow(ctx, w.Name) }
