package callfacts

import (
	"strings"
	"testing"
)

const (
	testHome    = "/home/dev"
	testProject = "/home/dev/proj"
)

func names(f *Facts) string {
	var s []string
	for _, c := range f.Commands {
		s = append(s, c.Name)
	}
	return strings.Join(s, ",")
}

func bash(cmd string) *Facts { return Bash(cmd, testProject, testHome) }

// Every simple command is found wherever it hides.
func TestNormalizeFindsCommands(t *testing.T) {
	for _, tc := range []struct{ cmd, want string }{
		{"a | b && c; d || e", "a,b,c,d,e"},
		{"(a; b) & c", "a,b,c"},
		{"x=$(a $(b)) c", "c,a,b"},
		{"if a; then b; else c; fi", "a,b,c"},
		{"for i in 1 2; do a; done; while b; do c; done", "a,b,c"},
		{"f() { a; }; f", "f,a"}, // the body runs when called
		{"f() { a; }; g", "g,a"}, // never called: walked once, as written
		{"f() { a; }", "a"},
		{"sudo env X=1 nohup timeout 5 nice -n 3 rm x", "sudo,env,nohup,timeout,nice,rm"},
		{"xargs -n1 rm < l", "xargs,rm"},
		{"find . -exec rm {} \\;", "find,rm"},
		{"command rm x; exec ls", "command,rm,exec,ls"},
		{"bash -c 'sh -c \"zsh -c \\\"eval rm x\\\"\"'", "bash,sh,zsh,eval,rm"},
		{"python3 -c \"import os; os.system('git status')\"", "python3,git"},
		{"bash <<EOF\nrm -rf x\nEOF", "bash,rm"},
		{"cat <<'EOF' > f\nhello\nEOF", "cat"},
	} {
		if got := names(bash(tc.cmd)); got != tc.want {
			t.Errorf("%q: commands %s, want %s", tc.cmd, got, tc.want)
		}
	}
}

func TestNormPath(t *testing.T) {
	for _, tc := range []struct{ in, cwd, want string }{
		{"~", "/x", "/home/dev"},
		{"~/a/../b", "/x", "/home/dev/b"},
		{"$HOME/.ssh", "/x", "/home/dev/.ssh"},
		{"${HOME}", "/x", "/home/dev"},
		{"../..", "/home/dev/proj", "/home"},
		{"a/./b/", "/p", "/p/a/b"},
		{`C:\Users\dev\x`, "/p", "/c/Users/dev/x"},
		{`src\main.go`, "/p", "/p/src/main.go"},
		{"/*", "/p", "/*"},
	} {
		if got := NormPath(tc.in, tc.cwd, testHome); got != tc.want {
			t.Errorf("NormPath(%q, %q) = %q, want %q", tc.in, tc.cwd, got, tc.want)
		}
	}
}

func TestRedirectsAndHeredoc(t *testing.T) {
	f := bash("cat <<EOF > ~/.ssh/config\nHost x\nEOF\necho hi 2>&1 >> out.log < in.txt")
	var got []string
	for _, p := range f.Paths {
		got = append(got, p.Op+":"+p.Path)
	}
	want := "write:/home/dev/.ssh/config,write:/home/dev/proj/out.log,read:/home/dev/proj/in.txt"
	if strings.Join(got, ",") != want {
		t.Errorf("paths %v, want %s", got, want)
	}
	if f.Commands[0].Heredoc != "Host x\n" {
		t.Errorf("heredoc %q", f.Commands[0].Heredoc)
	}
}
