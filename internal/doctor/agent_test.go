package doctor

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/warden-dev/warden/internal/agent"
)

// The agent memory line: info while agent.memory_max is unset, then ok
// with how the limit is applied — or a warning with the fix where this
// machine offers no way.
func TestDoctorAgentMemoryLine(t *testing.T) {
	e := newEnv(t)
	ok, why := agent.MemoryLimit()
	if cs := find(e.doctor(t), "agent memory", "agent.memory_max is not set; "+why); len(cs) != 1 || cs[0].Level != LevelInfo {
		t.Errorf("unset: %+v", cs)
	}
	os.MkdirAll(e.wardenHome, 0o755)
	if err := os.WriteFile(filepath.Join(e.wardenHome, "config.toml"), []byte("[agent]\nmemory_max = \"2G\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := find(e.doctor(t), "agent memory", "agent.memory_max 2G")
	switch {
	case len(cs) != 1:
		t.Errorf("set: %+v", cs)
	case ok && cs[0].Level != LevelOK:
		t.Errorf("a usable limit (%s) reported as %+v", why, cs[0])
	case !ok && (cs[0].Level != LevelWarn || cs[0].Fix == ""):
		t.Errorf("an impossible limit (%s) reported as %+v", why, cs[0])
	}
}
