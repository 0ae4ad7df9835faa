package install

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/hookio"
)

// Install prints a summary of the settings change — events, status line,
// backup — and the full diff only when asked.
func TestInstallSummarisesAndShowsTheDiffOnRequest(t *testing.T) {
	e := newEnv(t)
	writeFile(t, e.userSettings(), `{"statusLine": {"type": "command", "command": "~/bin/mystatus"}}`)
	res := e.install(t, e.opts())
	out := e.out.String()
	for _, want := range []string{
		fmt.Sprintf("settings: add warden's hook for %d events", len(hookio.Installed())),
		`settings: wrap the existing status line "~/bin/mystatus"`,
		"warden install --diff",
		"✓ backed up the old settings to " + res.Backup,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "+++ ") || len(strings.Split(out, "\n")) > 25 {
		t.Errorf("install printed the diff without --diff (%d lines):\n%s", len(strings.Split(out, "\n")), out)
	}

	// --diff on an uninstall prints it; the summary says the status line is restored.
	e.out.Reset()
	o := e.opts()
	o.ShowDiff = true
	e.uninstall(t, o)
	out = e.out.String()
	for _, want := range []string{"+++ " + e.userSettings(), `restore the status line it wrapped: "~/bin/mystatus"`,
		fmt.Sprintf("remove warden's hook from %d events", len(hookio.Installed()))} {
		if !strings.Contains(out, want) {
			t.Errorf("uninstall --diff output lacks %q:\n%s", want, out)
		}
	}
}

func TestDryRunPrintsTheFullDiff(t *testing.T) {
	e := newEnv(t)
	o := e.opts()
	o.DryRun = true
	res, err := Install(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(e.out.String(), res.Diff) || !strings.Contains(res.Diff, "+++ "+e.userSettings()) {
		t.Errorf("dry run does not print the diff:\n%s", e.out)
	}
}
