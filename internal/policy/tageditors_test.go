package policy

import "testing"

// AtomicParsley's overwrite form (--overWrite, -W) is judged as the other
// tag editors' in-place forms are: allowed on a project file, asked on a
// file of home data, denied on a glob of them; without --overWrite it
// writes a temporary copy and is allowed. Program names are lowercased
// before the tagEditors lookup, so its key is atomicparsley.
func TestTagEditorAtomicParsleyOverwrite(t *testing.T) {
	e := TestEngine(Builtin(), nil, Options{})
	cases := []struct {
		line, like string
		want       string
	}{
		{"AtomicParsley file.m4a --artwork REMOVE_ALL --overWrite", "id3v2 -D file.mp3", "allow"},
		{"AtomicParsley ~/Music/file.m4a --artwork REMOVE_ALL --overWrite", "id3v2 -D ~/Music/file.mp3", "ask"},
		{"AtomicParsley ~/Music/file.m4a --artist Nina -W", "eyeD3 --artist Nina ~/Music/file.mp3", "ask"},
		{"AtomicParsley ~/Music/Album/*.m4a --artwork REMOVE_ALL --overWrite", "id3v2 -D ~/Music/Album/*.mp3", "deny"},
		{"AtomicParsley ~/Music/file.m4a --artwork REMOVE_ALL", "id3v2 -l ~/Music/file.mp3", "allow"},
	}
	for _, tc := range cases {
		got, like := evalCommand(e, tc.line).Decision, evalCommand(e, tc.like).Decision
		if verdictName(got) != tc.want || verdictName(like) != tc.want {
			t.Errorf("%q: %s, %q: %s; want both %s", tc.line, verdictName(got), tc.like, verdictName(like), tc.want)
		}
	}
}
