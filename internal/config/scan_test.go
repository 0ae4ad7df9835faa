package config

import (
	"maps"
	"testing"
)

func TestKeyLines(t *testing.T) {
	text := `# comment = not a key
top = 1
"quoted" = 2
dotted.key = 3   # trailing = comment

[ table . "sub" ]  # header
a = "x = y"
b = """
fake = 1
"""
c = [
  "d = e",
  { f = 1 },
]
g = 'lit'

[[array]]
h = { i = 1, j = [2,
  3] }
k = 4
[second]
a = 5
`
	got := keyLines(text)
	want := map[string]int{
		"top":         2,
		"quoted":      3,
		"dotted":      4,
		"dotted.key":  4,
		"table.sub":   6,
		"table.sub.a": 7,
		"table.sub.b": 8,
		"table.sub.c": 11,
		"table.sub.g": 15,
		"array":       17,
		"array.h":     18,
		"array.k":     20,
		"second":      21,
		"second.a":    22,
	}
	if !maps.Equal(got, want) {
		t.Errorf("keyLines =\n%v\nwant\n%v", got, want)
	}
	for key, line := range map[string]int{"array.h.i": 18, "second.a": 22, "nope": 0, "second.nope": 21} {
		if n := lineOf(got, key); n != line {
			t.Errorf("lineOf(%q) = %d, want %d", key, n, line)
		}
	}
}

func TestNormalizeKey(t *testing.T) {
	for in, want := range map[string]string{
		"a":                "a",
		" a . b ":          "a.b",
		`"a.b" . c`:        "a.b.c",
		`'x' . "y"`:        "x.y",
		`a."quoted = key"`: "a.quoted = key",
	} {
		if got := normalizeKey(in); got != want {
			t.Errorf("normalizeKey(%q) = %q, want %q", in, got, want)
		}
	}
}
