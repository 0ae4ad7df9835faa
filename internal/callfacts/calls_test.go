package callfacts

import (
	"strings"
	"testing"
)

// cmdLine finds the first command named name and returns it as normalized.
func cmdLine(f *Facts, name string) string {
	var out []string
	for _, c := range f.Commands {
		if c.Name == name {
			out = append(out, c.String())
		}
	}
	return strings.Join(out, " | ")
}

// A called alias or function runs its own text with the call's
// arguments; a word split by an unquoted $IFS is several words.
func TestAliasesFunctionsAndIFS(t *testing.T) {
	for _, tc := range []struct{ cmd, name, want string }{
		{"bash -c 'shopt -s expand_aliases\nalias nuke=\"rm -rf\"\nnuke ~'", "rm", "rm -rf | rm -rf ~"},
		{"alias ll='ls -la'; ll src", "ls", "ls -la | ls -la src"},
		{"alias rm='rm -i'; \\rm -rf x", "rm", "rm -i | rm -rf x"},
		{"f(){ rm -rf \"$1\"; }; f ~", "rm", "rm -rf ~"},
		{"nuke() { sudo rm -rf \"$@\"; }; nuke /etc /var", "rm", "rm -rf /etc /var"},
		{"f() { echo \"$1\"; }; f a; f b", "echo", "echo a | echo b"},
		{"f() { rm -rf \"$1\"; }", "rm", "rm -rf $1"},
		{"retry() { \"$@\" || \"$@\"; }; retry go test ./...", "go", "go test ./... | go test ./..."},
		{"rm${IFS}-rf${IFS}/", "rm", "rm -rf /"},
		{"X=a; rm -rf $X\"b c\"", "rm", "rm -rf ab c"},
		{"IFS=,; c=rm,-rf,/tmp/x; $c", "rm", "rm -rf /tmp/x"},
		// a variable's other values go last: the host stays the host
		{"for h in a b; do ssh $h 'rm -rf /srv'; done", "ssh", "ssh a rm -rf /srv b"},
		{"for h in a b; do ssh $h 'rm -rf /srv'; done", "rm", "rm -rf /srv b"},
	} {
		if got := cmdLine(bash(tc.cmd), tc.name); got != tc.want {
			t.Errorf("%q: %s commands %q, want %q", tc.cmd, tc.name, got, tc.want)
		}
	}
}

// A function that calls itself is followed a bounded number of times.
func TestRecursiveFunctionBounded(t *testing.T) {
	f := bash("f() { f x; rm -rf \"$1\"; }; f /")
	if n := len(f.Commands); n > maxCmds || n == 0 {
		t.Fatalf("%d commands", n)
	}
	if !strings.Contains(cmdLine(f, "rm"), "rm -rf /") {
		t.Fatalf("rm calls: %s", cmdLine(f, "rm"))
	}
}

// Stdin names input the line does not show: a file redirect, a pipe from
// a program; text the line shows is in Heredoc instead.
func TestStdinNamesUnseenInput(t *testing.T) {
	for _, tc := range []struct{ cmd, name, want string }{
		{"psql app < dump.sql", "psql", "< " + testProject + "/dump.sql"},
		{"cat x.sql | psql", "psql", "< " + testProject + "/x.sql"},
		{"cat a.sql b.sql | psql", "psql", "| cat"},
		{"echo 'select 1' | psql", "psql", ""},
		{"sudo -u postgres psql < r.sql", "psql", "< " + testProject + "/r.sql"},
		{"xargs rm < list.txt", "rm", ""},
		{"psql < /dev/null", "psql", ""},
	} {
		var got string
		for _, c := range bash(tc.cmd).Commands {
			if c.Name == tc.name {
				got = c.Stdin
			}
		}
		if got != tc.want {
			t.Errorf("%q: %s Stdin %q, want %q", tc.cmd, tc.name, got, tc.want)
		}
	}
}

// explain's derivation says which alias or function call produced a
// command.
func TestDerivationNamesAliasAndFunction(t *testing.T) {
	for cmd, want := range map[string]string{
		"alias nuke='rm -rf'; nuke ~":    `alias nuke runs "rm -rf"`,
		"f(){ rm -rf \"$1\"; }; f /srv":  `f() runs with "/srv"`,
		"eval \"$(direnv export bash)\"": "direnv prints shell settings",
	} {
		d := strings.Join(bash(cmd).Derivation, "\n")
		if !strings.Contains(d, want) {
			t.Errorf("%q: derivation %q lacks %q", cmd, d, want)
		}
	}
}

// A here-document's text is what the command reads: a quoted delimiter
// keeps it exactly, an unquoted one keeps backslashes except before $ ` \
// and expands constants.
func TestHeredocText(t *testing.T) {
	for cmd, want := range map[string]string{
		"psql <<'EOF'\n\\i /tmp/x.sql\nEOF":      "\\i /tmp/x.sql\n",
		"psql <<EOF\n\\i /tmp/x.sql\nEOF":        "\\i /tmp/x.sql\n",
		"T=x; psql <<EOF\nselect '$T' \\$y\nEOF": "select 'x' $y\n",
		"psql <<< 'select 1'":                    "select 1\n",
	} {
		if got := bash(cmd).Commands[len(bash(cmd).Commands)-1].Heredoc; got != want {
			t.Errorf("%q: heredoc %q, want %q", cmd, got, want)
		}
	}
}

// The code a git alias stores with `git config` runs at the next `git
// x`, and Perl's and Ruby's system("prog", "arg", …) runs prog with those
// arguments: both are followed like the forms they stand for.
func TestStoredAliasAndListSystem(t *testing.T) {
	for _, tc := range []struct{ cmd, name, want string }{
		{"git config alias.nuke '!rm -rf ~' && git nuke", "rm", "rm -rf ~"},
		{"git config --global alias.x '!rm -rf /tmp/x'", "rm", "rm -rf /tmp/x"},
		{"git config core.pager 'rm -rf ~'", "rm", "rm -rf ~"},
		{"git config alias.st status", "rm", ""},
		{"git config user.name 'rm -rf'", "rm", ""},
		{`perl -e 'system("warden", "breaker", "reset")'`, "warden", "warden breaker reset"},
		{`python3 -c "import subprocess; subprocess.run('make', cwd='/')"`, "make", "make"},
		{`python3 -c "import os; os.system('rm' + ' -rf ' + os.path.expanduser('~'))"`, "rm", "rm -rf ~"},
		{`node -e "require('child_process').execFileSync('rm', ['-rf', require('os').homedir()])"`, "rm", "rm -rf ~"},
	} {
		if got := cmdLine(bash(tc.cmd), tc.name); got != tc.want {
			t.Errorf("%q: %s commands %q, want %q", tc.cmd, tc.name, got, tc.want)
		}
	}
}
