package gates

import (
	"fmt"
	"testing"
)

// TestSelfToggleThroughDecoding: a command name (or a whole script) a
// decoder, an escape or joined variables produce is what runs; a name
// decoded at run time running a user-only subcommand is taken for warden;
// decoding, printf and interpreters that do not run warden's user-only
// commands pass.
func TestSelfToggleThroughDecoding(t *testing.T) {
	for cmd, want := range map[string]bool{
		"$(echo d2FyZGVu | base64 -d) off":                                    true,
		"$(base64 -d <<< d2FyZGVu) safemode off":                              true,
		`$(printf '\x77\x61\x72\x64\x65\x6e') off`:                            true,
		`$(printf '\167arden') off`:                                           true,
		"$(echo nedraw | rev) breaker reset":                                  true,
		"$(echo 77617264656e | xxd -r -p) uninstall":                          true,
		`"$(echo d2FyZGVu | base64 --decode)" off`:                            true,
		"$(echo d2FyZGVu | openssl base64 -d) off":                            true,
		"$(echo jneqra | tr a-z n-za-m) off":                                  true,
		`$(echo -e '\x77arden') off`:                                          true,
		"$(echo d2FyZGVuIG9mZg== | base64 -d)":                                true,
		`eval "$(echo d2FyZGVuIG9mZg== | base64 --decode)"`:                   true,
		"echo d2FyZGVuIG9mZg== | base64 -d | bash":                            true,
		`bash <<< "$(echo d2FyZGVuIG9mZg== | base64 -d)"`:                     true,
		`bash -c "$(echo d2FyZGVuIG9mZg== | base64 -d)"`:                      true,
		"w=$(printf 'w%sden' ar); $w off":                                     true,
		"a=war; b=den; $a$b safemode off":                                     true,
		`"${W:-warden}" off`:                                                  true,
		`$'\x77arden' off`:                                                    true,
		`sudo $'\x77arden' off`:                                               true,
		"$(base64 -d < name.b64) off":                                         true,
		"$(cat n.txt | base64 --decode) safemode off":                         true,
		"$(xxd -r -p n.hex) uninstall":                                        true,
		`python3 -c "import subprocess; subprocess.run(['warden','off'])"`:    true,
		`node -e "require('child_process').execSync('warden safemode off')"`:  true,
		`perl -e 'system("warden", "breaker", "reset")'`:                      true,
		"git -c alias.w='!warden off' w":                                      true,
		`find . -maxdepth 0 -exec warden off \;`:                              true,
		"$(echo -n d2FyZGVu | base64 -di) off":                                true,
		`W=$(echo d2FyZGVu | base64 -d); "$W" safemode off`:                   true,
		"$(rev <<< nedraw) off":                                               true,
		`$(printf '%b' '\x77arden') uninstall`:                                true,
		`printf '%s\n' 'warden off' | sh`:                                     true,
		`ruby -e 'system("warden off")'`:                                      true,
		"$(echo d2FyZGVu | base64 -D) off":                                    true,
		`$(base64 -d <<< "$(echo d2FyZGVu)") off`:                             true,
		`W=$(echo Z2l0 | base64 -d); "$W" status`:                             false,
		"$(echo ZWNobw== | base64 -d) off":                                    false,
		"$(echo d2FyZGVu | base64 -d) loop stop":                              true,
		`x=$'\x77\x61\x72\x64\x65\x6e'; $x off`:                               true,
		"eval $(echo d2FyZGVuIHNhZmVtb2RlIG9mZg== | base64 -d)":               true,
		`eval "$(echo ZWNobyBoaQ== | base64 -d)"`:                             false,
		"echo off | xargs warden":                                             true,
		"printf 'safemode\\noff\\n' | xargs warden":                           true,
		"echo status | xargs warden":                                          false,
		"echo d2FyZGVu | base64 -d":                                           false,
		"$(echo Z28= | base64 -d) version":                                    false,
		"$(echo d2FyZGVu | base64 -d) status":                                 false,
		"$(base64 -d < name.b64) status":                                      false,
		"$(cat cmd.txt) off":                                                  false,
		"$TOOL off":                                                           false,
		"echo olleh | rev":                                                    false,
		"xxd -r -p dump.hex > out.bin":                                        false,
		`printf '\x1b[31mred\x1b[0m\n'`:                                       false,
		`base64 -d <<< "$PAYLOAD" > payload.bin`:                              false,
		`echo "$(printf '%s' warden) is installed"`:                           false,
		"echo aGVsbG8= | base64 -d | bash":                                    false,
		`python3 -c "print('run warden off yourself')"`:                       false,
		`python3 -c "import subprocess; subprocess.run(['warden','status'])"`: false,
		"git -c alias.s='!warden status' s":                                   false,
		"find . -name '*.go' -exec gofmt -l {} +":                             false,
		"git rev-parse HEAD && printf '%s\\n' done":                           false,
	} {
		if got, ok := SelfToggle(cmd); ok != want {
			t.Errorf("SelfToggle(%q) = %v (%q), want %v", cmd, ok, got, want)
		}
	}
}

// TestPrefilterPassesBuiltNames: names a line builds without spelling
// warden reach the parser.
func TestPrefilterPassesBuiltNames(t *testing.T) {
	for _, n := range builtNames {
		cmd := fmt.Sprintf("%s off", n)
		if !mayNameWarden(cmd) {
			t.Errorf("prefilter skips %q", cmd)
		}
	}
	for _, cmd := range []string{"git rev-parse HEAD", "go test ./...", "echo $HOME", "ls -la build"} {
		if mayNameWarden(cmd) {
			t.Errorf("prefilter passes %q", cmd)
		}
	}
}

// builtNames build "warden" without writing it; the prefilter test runs
// them through every wrapper and subcommand.
var builtNames = []string{"$(echo d2FyZGVu | base64 -d)", "$(base64 --decode <<< d2FyZGVu)", `$(printf '\x77arden')`, `$(printf '\167arden')`,
	"$(echo nedraw | rev)", "$(echo 77617264656e | xxd -r -p)", `$'\x77arden'`, "$(echo jneqra | tr a-z n-za-m)", "a=war; b=den; $a$b",
	"$(base64 -d < n.b64)", "$(echo d2FyZGVu | openssl base64 -d)", `$(echo -e '\x77arden')`}
