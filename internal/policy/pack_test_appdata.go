package policy

import "strings"

// An application keeps one folder per database or profile in the user's
// data directory (~/.local/share/Odoo/filestore/acme_test_0615, a Jupyter
// or browser profile made for a test run). A folder there named for a test
// (a test word and a run or date, no production word: testName) belongs to
// that test database and goes with it; the application's own folder, or a
// folder not named for a test, is the user's data and stays judged as such.

// appDataRoots are the home's per-application data directories.
var appDataRoots = []string{"/.local/share/", "/Library/Application Support/", "/AppData/Roaming/", "/AppData/Local/"}

// testAppData: p lies two or more folders below an application data
// directory of home and its last part is a test name.
func testAppData(p, home string) bool {
	if home == "" {
		return false
	}
	for _, r := range appDataRoots {
		rest, ok := strings.CutPrefix(p, home+r)
		if !ok {
			continue
		}
		parts := strings.Split(strings.Trim(rest, "/"), "/")
		leaf := parts[len(parts)-1]
		return len(parts) >= 3 && !strings.ContainsAny(leaf, "*?[") && testName(leaf)
	}
	return false
}
