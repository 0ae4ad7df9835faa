package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/warden-dev/warden/internal/atomicfile"
	"github.com/warden-dev/warden/internal/exitcode"
	"github.com/warden-dev/warden/internal/store"
)

// State is what a running daemon writes to paths.ServeState() for the CLI.
type State struct {
	PID     int       `json:"pid"`
	Addr    string    `json:"addr"`
	URL     string    `json:"url"`
	Started time.Time `json:"started"`
	Version string    `json:"version"`
	// Config is which config.toml the daemon applies (reload.go).
	Config *ConfigStamp `json:"config,omitempty"`
}

func writeState(path string, s State) error {
	b, _ := json.MarshalIndent(s, "", "  ")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(path, append(b, '\n'), 0o600)
}

// ReadState reads the state file of a running daemon; an error when none
// runs (no file, or its pid is gone).
func ReadState(path string) (*State, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, ErrNotRunning
	}
	if err != nil {
		return nil, err
	}
	var s State
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if s.PID <= 0 || syscall.Kill(s.PID, 0) != nil && !errors.Is(syscall.Kill(s.PID, 0), syscall.EPERM) {
		return nil, ErrNotRunning
	}
	return &s, nil
}

// ErrNotRunning: no daemon answers.
var ErrNotRunning = exitcode.With(exitcode.No, errors.New("the warden daemon is not running; start it with `warden serve` (or `warden service install` to keep it running)"))

func daemonPID(statePath string) int {
	s, err := ReadState(statePath)
	if err != nil {
		return 0
	}
	return s.PID
}

// ensureCLIToken keeps a token for the local CLI in path (0600): reused
// while the store knows it; a token the store lacks is added as it is
// (a pool's daemon serves on the local store's tokens until the shared
// store answers, then carries the CLI's token over, so the CLI and a
// logged-in dashboard keep working); made anew when that fails (the
// hash is unique: a token revoked in the store is never revived).
func ensureCLIToken(ctx context.Context, st store.Shared, path string) error {
	host, _ := os.Hostname()
	if b, err := os.ReadFile(path); err == nil {
		raw := strings.TrimSpace(string(b))
		hash := store.HashAPIToken(raw)
		if t, err := st.TokenByHash(ctx, hash); err == nil && t != nil {
			return nil
		}
		if strings.HasPrefix(raw, store.APITokenPrefix) && len(raw) <= 200 {
			if err := st.AddToken(ctx, &store.APIToken{ID: "cli-" + hash[:8], Name: "local CLI (" + host + ")", Hash: hash, Created: time.Now().UTC(), Scope: store.ScopeAdmin}); err == nil {
				return nil
			}
		}
	}
	tok, hash := store.NewAPIToken()
	if err := st.AddToken(ctx, &store.APIToken{ID: "cli-" + hash[:8], Name: "local CLI (" + host + ")", Hash: hash, Created: time.Now().UTC(), Scope: store.ScopeAdmin}); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(path, []byte(tok+"\n"), 0o600)
}
