package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/helper"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// shipperRestart is how long the keeper waits before starting a shipper
// again that exited on its own (a crash, a missing helper binary).
const shipperRestart = 5 * time.Second

// startShipper runs `warden-helper ship` beside the keeper while a shared
// PostgreSQL store is configured (WARDEN_DATABASE_URL, or store.url in the
// user config), until ctx ends: hooks keep writing the local store and
// never wait on the network (internal/store/ship). The shipper is a child
// process because it links pgx — the network and TLS — which warden-core
// does not. It reads its stdin until EOF, so it stops when the keeper
// does, even when the keeper is killed. wait returns once it has stopped.
func startShipper(ctx context.Context) (wait func()) {
	if !shipping() {
		return func() {}
	}
	return startChild(ctx, "shipper", "ship")
}

// startChild runs `warden-helper ARGS --until-stdin-closes` beside the
// keeper until ctx ends, starting it again after shipperRestart when it
// exits on its own. wait returns once it has stopped.
func startChild(ctx context.Context, name string, args ...string) (wait func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			if err := runChild(ctx, args...); err != nil {
				fmt.Fprintf(os.Stderr, "warden keeper: %s: %v\n", name, err)
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(shipperRestart):
			}
		}
	}()
	return func() { <-done }
}

// shipping says whether a shared store is configured, so the keeper runs
// a shipper.
func shipping() bool {
	cfg, _ := config.Load(paths.UserConfig(), "")
	url, _ := cfg.StoreURL()
	return url != ""
}

// shipBacklog is the keeper's Options.Backlog: rows wait to be shipped
// while a shared store is still configured (the user config is read again,
// so removing store.url lets an idle keeper go), a shipper can run at
// all (without warden-helper the keeper would stay for nothing) and its
// failure is not one only a fixed setting mends (a wrong password: the
// keeper would stay for ever; the next hook starts it again).
func shipBacklog(ctx context.Context, pin *sqlite.Pin) (bool, error) {
	if !shipping() {
		return false, nil
	}
	if _, err := helper.Path(); err != nil {
		return false, err
	}
	if stuck, err := pin.ShipStuck(ctx); err != nil || stuck {
		return false, err
	}
	return pin.HasUnshipped(ctx)
}

// runChild runs one helper process (the shipper, the OTel export) until
// it exits or ctx ends; then it closes its stdin and gives it its last
// pass (5 s) and a little more before killing it.
func runChild(ctx context.Context, args ...string) error {
	bin, err := helper.Path()
	if err != nil {
		return err
	}
	cmd := exec.Command(bin, append(args, "--until-stdin-closes")...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		return fmt.Errorf("exited: %v", err)
	case <-ctx.Done():
	}
	stdin.Close()
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-exited
	}
	return nil
}
