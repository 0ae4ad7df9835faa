package shellesc

import "testing"

// TestANSIC: each escape as bash decodes it in $'…'; an unknown one stays.
func TestANSIC(t *testing.T) {
	for in, want := range map[string]string{
		`\x77arden`: "warden", `\x7`: "\x07", `\167arden`: "warden", `\0167arden`: "warden",
		`a\tb\\`: "a\tb\\", `\q`: `\q`, `\u00e9t\u00e9`: "été", `\U0001F600`: "😀",
		`\e[0m`: "\x1b[0m", `it\'s`: "it's", `trailing\`: `trailing\`, `plain`: "plain",
		`\x72\x6d -rf`: "rm -rf",
	} {
		if got := ANSIC(in); got != want {
			t.Errorf("ANSIC(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPrintf: the builtin's verbs, flags read and ignored, and the format
// reused while arguments remain.
func TestPrintf(t *testing.T) {
	for _, c := range []struct {
		format string
		args   []string
		want   string
	}{
		{"w%sden %s", []string{"ar", "off"}, "warden off"},
		{"%s", []string{"war", "den"}, "warden"},
		{`%b\n`, []string{`\x72m`}, "rm\n"},
		{"%c%c", []string{"rx", "mx"}, "rm"},
		{"%-5s|%d%%", []string{"a", "7"}, "a|7%"},
		{`\x72\155 %s`, []string{"-rf"}, "rm -rf"},
		{"%s-%s;", []string{"a", "b", "c"}, "a-b;c-;"},
		{"no verbs", []string{"x"}, "no verbs"},
	} {
		if got := Printf(c.format, c.args); got != c.want {
			t.Errorf("Printf(%q, %q) = %q, want %q", c.format, c.args, got, c.want)
		}
	}
}

// TestDecode: each decoding filter on its input, and what it refuses.
func TestDecode(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		in   string
		want string
		ok   bool
	}{
		{"rev", nil, "nedraw\nffo", "warden\noff", true},
		{"base64", []string{"-d"}, "d2FyZGVu\n", "warden", true},
		{"base64", []string{"-di"}, "d2FyZGVu", "warden", true},
		{"base64", []string{"--decode"}, "d2FyZGVu", "warden", true},
		{"openssl", []string{"base64", "-d"}, "d2FyZGVu", "warden", true},
		{"xxd", []string{"-r", "-p"}, "77617264656e", "warden", true},
		{"xxd", []string{"-rp"}, "77 61 72", "war", true},
		{"tr", []string{"a-z", "b-za"}, "vzqcdm", "warden", true},
		{"base64", nil, "d2FyZGVu", "", false},
		{"base64", []string{"-d"}, "not base64!", "", false},
		{"tr", []string{"[:lower:]", "[:upper:]"}, "x", "", false},
		{"cat", nil, "x", "", false},
	} {
		got, ok := Decode(c.name, c.args, c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("Decode(%s %q, %q) = %q, %v; want %q, %v", c.name, c.args, c.in, got, ok, c.want, c.ok)
		}
	}
}
