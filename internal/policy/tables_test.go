package policy

import (
	"strings"
	"testing"
)

// Every data table of the package reads without error: a malformed line
// panics with its table and line number (datatable.Must), here rather
// than in a hook.
func TestEveryTableLoads(t *testing.T) {
	for name, load := range map[string]func(){
		"remoteops.txt":     func() { remoteOps() },
		"gendirs.txt":       func() { genDirs() },
		"secrethosts.txt":   func() { secretHosts() },
		"sqlkinds.txt":      func() { sqlKinds() },
		"secagents.txt":     func() { secAgents() },
		"extpublishers.txt": func() { extPublishers() },
		"storewrites.txt":   func() { storeWriters() },
		"taskrunners.txt":   func() { runnerForms() },
		"zones.txt":         func() { builtinZones() },
		"installscope.txt":  func() { installScopes() },
		"startupvars.txt":   func() { startupData() },
		"consoles.txt":      func() { consoles() },
		"authoff.txt":       func() { authOffSettings() },
		"devprocs.txt":      func() { devProcs() },
	} {
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("%s: %v", name, p)
				}
			}()
			load()
		}()
	}
	if _, err := parseZoneTable("effect project home\ndelete allow\n"); err == nil || !strings.HasPrefix(err.Error(), "zones.txt:2: 1 cells, want 2") {
		t.Errorf("short zones.txt row: %v", err)
	}
}
