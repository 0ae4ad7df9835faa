package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/warden-dev/warden/internal/paths"
)

// `warden config check` also says whether a running `warden serve`
// applies the config file as it is now: the daemon writes the SHA-256 of
// the file it loaded into its state file (run/serve.json) on start and on
// every reload, with the reason when a reload was refused. Read from the
// file, not the API: this command runs in warden-core, which links no
// HTTP client.

// daemonConfig is what the state file says about the config.
type daemonConfig struct {
	PID    int `json:"pid"`
	Config *struct {
		Hash         string    `json:"hash"`
		LoadedAt     time.Time `json:"loaded_at"`
		Error        string    `json:"error"`
		NeedsRestart []string  `json:"needs_restart"`
	} `json:"config"`
}

// DaemonConfigStatus is config check's "daemon" entry.
type DaemonConfigStatus struct {
	PID          int      `json:"pid"`
	Current      bool     `json:"current"` // it applies the file as it is
	LoadedAt     string   `json:"loaded_at,omitempty"`
	Error        string   `json:"reload_error,omitempty"`
	NeedsRestart []string `json:"needs_restart,omitempty"`
	Message      string   `json:"message"`
}

// daemonConfigStatus compares the running daemon's config with userFile;
// nil when no daemon runs.
func daemonConfigStatus(userFile string) *DaemonConfigStatus {
	b, err := os.ReadFile(paths.ServeState())
	if err != nil {
		return nil
	}
	var st daemonConfig
	if json.Unmarshal(b, &st) != nil || st.PID <= 0 || !alive(st.PID) {
		return nil
	}
	s := &DaemonConfigStatus{PID: st.PID}
	if st.Config == nil {
		s.Message = fmt.Sprintf("warden serve (pid %d) does not say which config it loaded (an older release): restart it to be sure it applies %s", st.PID, userFile)
		return s
	}
	c := st.Config
	s.LoadedAt, s.Error, s.NeedsRestart = c.LoadedAt.Format(time.RFC3339), c.Error, c.NeedsRestart
	s.Current = c.Hash == hashFile(userFile)
	switch {
	case !s.Current && c.Error != "":
		s.Message = fmt.Sprintf("warden serve (pid %d) runs an OLDER config than %s: its last reload was refused (%s); fix the file and save it again", st.PID, userFile, c.Error)
	case !s.Current:
		s.Message = fmt.Sprintf("warden serve (pid %d) runs an OLDER config than %s (loaded %s); it reloads within seconds of a save, or now with: kill -HUP %d", st.PID, userFile, s.LoadedAt, st.PID)
	case len(c.NeedsRestart) > 0:
		s.Message = fmt.Sprintf("warden serve (pid %d) applies %s, except %s, which take effect when it restarts", st.PID, userFile, strings.Join(c.NeedsRestart, ", "))
	default:
		s.Message = fmt.Sprintf("warden serve (pid %d) applies %s (loaded %s)", st.PID, userFile, s.LoadedAt)
	}
	return s
}

// hashFile is the SHA-256 of path's bytes, "" when it is missing (as the
// daemon records a missing file).
func hashFile(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}
