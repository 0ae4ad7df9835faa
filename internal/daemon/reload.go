package daemon

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/warden-dev/warden/internal/config"
)

// The daemon re-reads config.toml on SIGHUP and when the file changes
// (watch.go), and applies it at once where it can: hooks read the file
// themselves on every call (policy, gates, pacing in the hook, judges),
// the daemon's parts take theirs through appliers (agents, the
// scheduler's slots, its pacing hold, webhooks, notices). Keys that
// shape what is already listening or running (the address, TLS, the
// store, the tmux server) need a restart, and the reload says which. A
// file with any problem is not applied: the running config stays, the
// problems are logged and shown by /health and `warden config check`.

// ConfigStamp says which config.toml a running daemon applies; it is
// written into the state file and shown in /health.
type ConfigStamp struct {
	Path string `json:"path"`
	// Hash is the SHA-256 of the file's bytes ("" when there is none).
	Hash     string    `json:"hash"`
	ModTime  time.Time `json:"mtime,omitzero"`
	LoadedAt time.Time `json:"loaded_at"`
	// Error is why the last reload was refused ("" when it applied).
	Error string `json:"error,omitempty"`
	// NeedsRestart are keys changed since start-up that apply only after
	// a restart of warden serve.
	NeedsRestart []string `json:"needs_restart,omitempty"`
}

// restartKeys apply only when the daemon starts: they shape what is
// listening or already running.
var restartKeys = []string{
	"serve.addr", "serve.system", "serve.tls_cert", "serve.tls_key", "serve.hosts", "serve.queue_size",
	"serve.task_timeout", "serve.claude_command", "serve.claude_args", "store.url", "store.unshipped_keep_days",
	"agent.runner", "agent.tmux_socket", "pacing.poll_interval",
}

type liveConfig struct {
	path string
	log  *slog.Logger

	mu       sync.Mutex
	cfg      *config.Config
	started  *config.Config // what the restart-only keys are compared with
	stamp    ConfigStamp
	appliers map[string]func(*config.Config)
	order    []string
	onStamp  func(ConfigStamp) // the state file's writer
}

func newLiveConfig(path string, cfg *config.Config, log *slog.Logger) *liveConfig {
	l := &liveConfig{path: path, log: log, cfg: cfg, started: cfg, appliers: map[string]func(*config.Config){}}
	l.stamp = ConfigStamp{Path: path, LoadedAt: time.Now().UTC()}
	l.stamp.Hash, l.stamp.ModTime, _ = fileHash(path)
	return l
}

// Get is the config in force.
func (l *liveConfig) Get() *config.Config {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.cfg
}

// Stamp is which file is in force.
func (l *liveConfig) Stamp() ConfigStamp {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.stamp
	s.NeedsRestart = slices.Clone(s.NeedsRestart)
	return s
}

// onReload registers fn under name (a part built again, after a shared
// store answered, replaces its own).
func (l *liveConfig) onReload(name string, fn func(*config.Config)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.appliers[name]; !ok {
		l.order = append(l.order, name)
	}
	l.appliers[name] = fn
}

// ReloadResult is what one reload did.
type ReloadResult struct {
	Applied      bool     `json:"applied"`
	Changed      []string `json:"changed,omitempty"`
	NeedsRestart []string `json:"needs_restart,omitempty"`
	Problems     []string `json:"problems,omitempty"`
}

// Reload reads the file again and applies it (why: "SIGHUP", "file
// changed"). A file with problems is refused and the config in force
// stays.
func (l *liveConfig) Reload(why string) ReloadResult {
	hash, mtime, err := fileHash(l.path)
	if err != nil {
		return l.refuse(why, []string{err.Error()})
	}
	next, problems := config.Load(l.path, "")
	if len(problems) > 0 {
		msgs := make([]string, len(problems))
		for i, p := range problems {
			msgs[i] = p.String()
		}
		return l.refuse(why, msgs)
	}
	l.mu.Lock()
	changed := changedKeys(l.cfg, next)
	restart := slices.DeleteFunc(changedKeys(l.started, next), func(k string) bool { return !slices.Contains(restartKeys, k) })
	l.cfg = next
	l.stamp = ConfigStamp{Path: l.path, Hash: hash, ModTime: mtime, LoadedAt: time.Now().UTC(), NeedsRestart: restart}
	fns := make([]func(*config.Config), 0, len(l.order))
	for _, name := range l.order {
		fns = append(fns, l.appliers[name])
	}
	stamp, onStamp := l.stamp, l.onStamp
	l.mu.Unlock()
	for _, fn := range fns {
		fn(next)
	}
	if onStamp != nil {
		onStamp(stamp)
	}
	res := ReloadResult{Applied: true, Changed: changed, NeedsRestart: restart}
	if len(changed) > 0 {
		l.log.Info("config reloaded", "why", why, "file", l.path, "changed", changed)
	}
	if len(restart) > 0 {
		l.log.Warn("config: these keys apply only after a restart of warden serve", "keys", restart)
	}
	return res
}

func (l *liveConfig) refuse(why string, problems []string) ReloadResult {
	l.mu.Lock()
	l.stamp.Error = fmt.Sprintf("%s: not applied, the config loaded at %s stays: %s", why, l.stamp.LoadedAt.Format(time.RFC3339), strings.Join(problems, "; "))
	stamp, onStamp := l.stamp, l.onStamp
	l.mu.Unlock()
	l.log.Error("config reload refused: fix the file (warden config check); the running config stays", "why", why, "file", l.path, "problems", problems)
	if onStamp != nil {
		onStamp(stamp)
	}
	return ReloadResult{Problems: problems}
}

// changedKeys names the registry keys whose values differ.
func changedKeys(a, b *config.Config) []string {
	var out []string
	for _, k := range config.Keys() {
		if !reflect.DeepEqual(reflect.ValueOf(k.Field(a)).Elem().Interface(), reflect.ValueOf(k.Field(b)).Elem().Interface()) {
			out = append(out, k.Name)
		}
	}
	sort.Strings(out)
	return out
}

// fileHash is the SHA-256 and modification time of path; a missing file
// is "" (the defaults apply).
func fileHash(path string) (string, time.Time, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", time.Time{}, nil
	}
	if err != nil {
		return "", time.Time{}, err
	}
	var mtime time.Time
	if fi, err := os.Stat(path); err == nil {
		mtime = fi.ModTime().UTC()
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), mtime, nil
}

// HashFile is fileHash for tests and tools: the hash a ConfigStamp holds.
func HashFile(path string) (string, time.Time, error) { return fileHash(path) }
