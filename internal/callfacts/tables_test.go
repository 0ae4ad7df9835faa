package callfacts

import (
	"strings"
	"testing"
)

// Every data table of the package reads without error: a malformed line
// panics with its table and line number (datatable.Must), here rather
// than in a hook.
func TestEveryTableLoads(t *testing.T) {
	for name, load := range map[string]func(){
		"tools.txt":        func() { toolTable() },
		"verbs.txt":        func() { destroyVerbs() },
		"hostsec.txt":      func() { hostSecRules() },
		"remote.txt":       func() { remoteRules() },
		"secretprints.txt": func() { secretPrintRules() },
		"downgrade.txt":    func() { downgrades() },
		"execopts.txt":     func() { execOpts() },
		"hostacts.txt":     func() { hostActTable() },
		"sdkcalls.txt":     func() { sdkCalls() },
		"rshell.txt":       func() { rshellRules() },
		"envrun.txt":       func() { envRuns() },
		"imageclis.txt":    func() { imageCLIs() },
		"chain.txt":        func() { chainTable() },
		"admin.txt":        func() { adminTab() },
		"appsecrets.txt":   func() { appSecrets() },
		"dumps.txt":        func() { dumpRules() },
		"scratchdirs.txt":  func() { scratchDirTable() },
		"cloudops.txt":     func() { cloudTab() },
		"previews.txt":     func() { previewRules() },
		"pscmdlets.txt":    func() { psCmdlets() },
		"sinks.txt":        func() { sinkTable() },
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
}

// A malformed line of a table read through datatable names the table and
// the line.
func TestTableErrorsNameTheLine(t *testing.T) {
	_, err := parseHostActs("@wipe delete wipes a disk\ndeny:wipe\n")
	if err == nil || !strings.HasPrefix(err.Error(), "hostacts.txt:2:") {
		t.Errorf("hostacts.txt short rule: %v", err)
	}
	_, err = parseHostActs("# c\n@wipe remove wipes\n")
	if err == nil || !strings.HasPrefix(err.Error(), "hostacts.txt:2:") {
		t.Errorf("hostacts.txt bad kind: %v", err)
	}
}

// The sink table gives curl's body options and every program's message
// options (sinks.txt), the sets the secret-to-network and the
// secret-in-message rules read.
func TestSinkOpts(t *testing.T) {
	for _, tc := range []struct {
		kind, prog, opt string
		want            bool
	}{{"body", "curl", "--data-raw", true}, {"body", "curlie", "-F", true}, {"body", "wget", "--post-data", true},
		{"body", "wget", "-d", false}, {"message", "*", "--body", true}, {"message", "*", "--data", false}} {
		if got := SinkOpts(tc.kind, tc.prog)[tc.opt]; got != tc.want {
			t.Errorf("SinkOpts(%q, %q)[%q] = %v, want %v", tc.kind, tc.prog, tc.opt, got, tc.want)
		}
	}
}
