package callfacts

import "testing"

// A file named by a command run on another host through a login is kept
// as that host reads it beside its path normalized here: as written, or
// joined to a cd there; a command run here, a cluster job (it starts in
// this cwd) and a local redirect of ssh's output keep none.
func TestElsewhereIsWhatTheOtherHostReads(t *testing.T) {
	for in, want := range map[string]string{
		"ssh h 'cat > targets'":                   "targets",
		"ssh web1 'sed -i s/a/b/ app/config.ini'": "app/config.ini",
		"ssh h 'cd /srv && echo x > out'":         "/srv/out",
		"ssh h 'cd app && echo x >> out'":         "app/out",
		"mosh h -- sh -c 'echo x > notes.txt'":    "notes.txt",
		"ssh a ssh b 'echo x > out'":              "out",
		"cat > targets":                           "",
		"ssh h cat > local.txt":                   "",
		"srun bash -c 'echo x > out.txt'":         "",
		"bash -c 'echo x > out.txt'":              "",
	} {
		f := Bash(in, "/home/u/proj", "/home/u")
		got := ""
		for _, p := range f.Paths {
			if p.Op == OpWrite {
				got = p.Elsewhere
			}
		}
		if got != want {
			t.Errorf("%q: the written path there is %q, want %q (paths %+v)", in, got, want, f.Paths)
		}
		for _, r := range f.Redirects {
			if r.Elsewhere != "" && r.Elsewhere != want {
				t.Errorf("%q: the redirect's path there is %q, want %q", in, r.Elsewhere, want)
			}
		}
	}
}
