package cli

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/warden-dev/warden/internal/agent"
	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/hookwire/settle"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// withStore opens the store at paths.DB() (creating it, as a hook would),
// runs fn on it and closes it: the open and close every command that
// writes the store would otherwise repeat.
func withStore(ctx context.Context, fn func(st store.Local) error) error {
	st, err := sqlite.Open(ctx, paths.DB())
	if err != nil {
		return err
	}
	defer st.Close()
	return fn(st)
}

// withExistingStore is withStore for commands that read what hooks
// recorded: with no store yet it says to install, instead of creating an
// empty store to read nothing from.
func withExistingStore(ctx context.Context, fn func(st store.Local) error) error {
	st, err := openExistingStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	return fn(st)
}

// openExistingStore opens the store, or says to install when there is none.
func openExistingStore(ctx context.Context) (*sqlite.Store, error) {
	if _, err := os.Stat(paths.DB()); err != nil {
		return nil, fmt.Errorf("no store at %s: run `warden install` first (or set WARDEN_HOME)", paths.DB())
	}
	// The keeper answers a hook before it records it: let the hooks it
	// has answered land first, so what was just done is in what we read.
	settle.Wait(paths.Home(), time.Second)
	return sqlite.Open(ctx, paths.DB())
}

type agentStore interface {
	agent.Store
	Close() error
}

// agentManager opens the existing store and a manager configured from the
// user's config; the caller closes the store.
func agentManager(ctx context.Context) (*agent.Manager, agentStore, error) {
	st, err := openExistingStore(ctx)
	if err != nil {
		return nil, nil, err
	}
	cfg, _ := config.Load(paths.UserConfig(), "")
	return agent.NewManager(agent.ConfigFrom(cfg), st), st, nil
}

// withAgentManager runs fn with agentManager's manager and closes the store.
func withAgentManager(ctx context.Context, fn func(m *agent.Manager) error) error {
	m, st, err := agentManager(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	return fn(m)
}
