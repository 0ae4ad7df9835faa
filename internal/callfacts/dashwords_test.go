package callfacts

import (
	"slices"
	"testing"
)

// How words become options, values and positionals (dashwords.go).
func TestOptionWords(t *testing.T) {
	for _, tc := range []struct {
		name      string
		args      []string
		pos, flag []string
	}{
		// a global taken anywhere: its value is no positional
		{"aws", []string{"s3", "sync", "./e", "s3://b/", "--delete", "--profile", "p"}, []string{"s3", "sync", "./e", "s3://b/"}, []string{"--delete", "--profile"}},
		{"kubectl", []string{"delete", "pod", "x", "-nprod"}, []string{"delete", "pod", "x"}, []string{"-n"}},
		// kubectl -f is a global before the subcommand only: its file stays
		{"kubectl", []string{"apply", "-f", "x.yaml"}, []string{"apply", "x.yaml"}, []string{"-f"}},
		// single-dash words of unknown programs are long options
		{"snapmirror", []string{"delete", "-destination-path", "a:b"}, []string{"delete", "a:b"}, []string{"-destination-path"}},
		{"volume", []string{"delete", "-hint", "x"}, []string{"delete", "x"}, []string{"-hint"}},
		{"magick", []string{"-avzP"}, nil, []string{"-avzP", "-a", "-v", "-z", "-P"}},
		{"cpio", []string{"-idmu"}, nil, []string{"-idmu", "-i", "-d", "-m", "-u"}},
		{"rsync", []string{"-avze", "ssh", "./a", "h:/b"}, []string{"./a", "h:/b"}, []string{"-avze", "-a", "-v", "-z", "-e"}},
		// a cluster ends at a letter that takes a value
		{"curl", []string{"-sku", "admin:$P", "https://h/x"}, []string{"https://h/x"}, []string{"-sku", "-s", "-k", "-u"}},
		{"curl", []string{"-XPOST", "-H", "A: b", "--data", "x", "https://h/"}, []string{"https://h/"}, []string{"-XPOST", "-X", "-H", "--data"}},
		{"wget", []string{"-qO", "f", "u"}, []string{"u"}, []string{"-qO", "-q", "-O"}},
	} {
		c := Cmd{Name: tc.name, Args: tc.args}
		splitFlags(&c)
		if !slices.Equal(c.Pos, tc.pos) || !slices.Equal(c.Flags, tc.flag) {
			t.Errorf("%s %q: pos %q flags %q, want %q %q", tc.name, tc.args, c.Pos, c.Flags, tc.pos, tc.flag)
		}
	}
}
