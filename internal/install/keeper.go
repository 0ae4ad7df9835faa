package install

import (
	"fmt"
	"io"
	"net"
	"time"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/detach"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/keeper"
)

// keeperStartWait is how long install waits for a keeper it started to
// answer on the hook socket.
const keeperStartWait = 3 * time.Second

// startKeeper starts the store keeper of the installed core when none
// runs, so the hooks of the first minute after an install or upgrade are
// answered by it at once: install stops the old binary's keeper, and a
// hook starts a new one at most every 30 s (keeper.Ensure), so without
// this the first hooks would each run in their own, slower, process.
// Nothing happens when the keeper is switched off (hook.keeper = false or
// WARDEN_KEEPER=off) or already runs. A keeper that does not come up is
// reported, not an error: hooks work without it.
func startKeeper(w io.Writer, core string) {
	if cfg, _ := config.Load(paths.UserConfig(), ""); keeper.Disabled() || (cfg != nil && !cfg.Hook.Keeper) {
		return
	}
	lock := paths.KeeperLock()
	if running, err := keeper.Running(lock); err != nil || running {
		return
	}
	if err := detach.Start(core, "keeper"); err != nil {
		fmt.Fprintf(w, "  (could not start the store keeper: %v; the next hook starts it)\n", err)
		return
	}
	sock := paths.HookSocket()
	deadline := time.Now().Add(keeperStartWait)
	for time.Now().Before(deadline) {
		if c, err := net.DialTimeout("unix", sock, 100*time.Millisecond); err == nil {
			c.Close()
			fmt.Fprintf(w, "✓ store keeper started: hooks are answered on %s\n", sock)
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	fmt.Fprintf(w, "  (the store keeper did not answer on %s within %s; hooks work without it and the next one retries)\n", sock, keeperStartWait)
}
