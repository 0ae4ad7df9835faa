package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/testenv"
)

// TestMain runs the package's tests in a home of their own (testenv.Main).
func TestMain(m *testing.M) { testenv.Main(m) }

// readmeSkip are the commands of the README's shell blocks this test does
// not run, and why.
var readmeSkip = map[string]string{
	"make test": "runs the whole suite, this test included",
}

// readmeInstead are commands run in another form: `make install` is `make
// build` (done before the tests: WARDEN_TEST_BINARIES) and then the built
// warden's install; the test runs that install on the binaries testenv
// provides, so it does not rebuild the source tree under the other tests.
var readmeInstead = map[string]string{
	"make install": "{bin}/warden install",
}

// readmeCommands returns the commands of the README's ```sh blocks:
// comments dropped, backslash continuations joined.
func readmeCommands(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var cmds []string
	in := false
	cont := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "```sh") || strings.HasPrefix(line, "```bash"):
			in = true
			continue
		case strings.HasPrefix(line, "```"):
			in = false
			continue
		case !in:
			continue
		}
		if i := strings.Index(line, "  #"); i >= 0 { // a trailing comment
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasSuffix(line, `\`) {
			cont += strings.TrimSuffix(line, `\`) + " "
			continue
		}
		cmds = append(cmds, cont+line)
		cont = ""
	}
	if len(cmds) < 3 {
		t.Fatalf("found only %d commands in the README's shell blocks: %q", len(cmds), cmds)
	}
	return cmds
}

// freshHome is an empty home with a project directory, and the
// environment of a shell in it: PATH holds ~/.local/bin (as Debian's and
// Ubuntu's ~/.profile add it when it exists) when withLocalBin, and the
// system directories. WARDEN_KEEPER=off so no keeper outlives the test.
func freshHome(t *testing.T, withLocalBin bool) (home, project string, env []string) {
	home = t.TempDir()
	project = filepath.Join(home, "project")
	path := "/usr/local/bin:/usr/bin:/bin"
	if withLocalBin {
		local := filepath.Join(home, ".local", "bin")
		if err := os.MkdirAll(local, 0o755); err != nil {
			t.Fatal(err)
		}
		path = local + ":" + path
	}
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	env = []string{"HOME=" + home, "PATH=" + path, "SHELL=/bin/sh", "TERM=dumb", "COLUMNS=100", "WARDEN_KEEPER=off", "TZ=UTC"}
	return home, project, env
}

func sh(t *testing.T, dir string, env []string, command string) (string, error) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestReadmeCommandsRunAsWritten: in a fresh home, the README's first
// command installs warden, and every other command of its shell blocks
// then runs as written, `warden` found on PATH, exit 0.
func TestReadmeCommandsRunAsWritten(t *testing.T) {
	bin := testenv.Binaries(t, "warden", "warden-core", "warden-helper")
	_, project, env := freshHome(t, true)
	for _, c := range readmeCommands(t) {
		if why, ok := readmeSkip[c]; ok {
			t.Logf("skip %q: %s", c, why)
			continue
		}
		run := c
		if instead, ok := readmeInstead[c]; ok {
			run = strings.ReplaceAll(instead, "{bin}", bin)
		}
		out, err := sh(t, project, env, run)
		if err != nil {
			t.Errorf("%s: %v\n%s", c, err, out)
			continue
		}
		if strings.Contains(out, "unknown command") || strings.Contains(out, "unknown flag") {
			t.Errorf("%s:\n%s", c, out)
		}
		t.Logf("%s: ok (%d bytes of output)", c, len(out))
	}
}

// TestReadmePathLine: with no per-user directory on PATH, install prints
// the README's PATH line, and with it the shell finds warden.
func TestReadmePathLine(t *testing.T) {
	bin := testenv.Binaries(t, "warden", "warden-core")
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var line string
	for l := range strings.SplitSeq(string(data), "\n") {
		if strings.HasPrefix(l, "    export PATH=") {
			line = strings.TrimSpace(l)
		}
	}
	if line == "" {
		t.Fatal("the README shows no PATH line")
	}
	_, project, env := freshHome(t, false)
	out, err := sh(t, project, env, bin+"/warden install")
	if err != nil || !strings.Contains(out, line) {
		t.Fatalf("install (%v) does not print the README's line %q:\n%s", err, line, out)
	}
	if out, err := sh(t, project, env, "warden doctor"); err == nil {
		t.Fatalf("warden found on PATH before the line was added:\n%s", out)
	}
	out, err = sh(t, project, env, line+" && warden doctor")
	if err != nil || !strings.Contains(out, "ok    on PATH") {
		t.Errorf("with the README's line, warden doctor: %v\n%s", err, out)
	}
}
