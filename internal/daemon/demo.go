package daemon

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/demo"
	"github.com/warden-dev/warden/internal/paths"
)

// runDemo is `warden serve --demo` (internal/demo). warden-helper runs in
// place of the front (same pid), which sits next to it.
func runDemo(ctx context.Context, out io.Writer, keep bool) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	front := filepath.Join(filepath.Dir(exe), "warden")
	if _, err := os.Stat(front); err != nil {
		return fmt.Errorf("the demo needs warden next to %s: %w", exe, err)
	}
	cfg, _ := config.Load(paths.UserConfig(), "") // agent.claude, when the user set it
	return demo.Run(ctx, demo.Options{Bin: front, Claude: cfg.Agent.Claude, Keep: keep, Out: out})
}
