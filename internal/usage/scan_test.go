package usage

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/usage/corpus"
)

const scanBase = `{"parentUuid":"p","isSidechain":false,"type":"assistant","cwd":"/w","sessionId":"s","requestId":"r","timestamp":"2026-01-09T10:00:00.000Z","version":"2.1.330","message":{"id":"m","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"text","text":"hi"}],"stop_reason":null,"usage":{"input_tokens":3,"output_tokens":4,"cache_creation_input_tokens":5,"cache_read_input_tokens":6,"cache_creation":{"ephemeral_5m_input_tokens":1,"ephemeral_1h_input_tokens":4}}},"uuid":"u"}`

// trickyLines are lines that a byte search and a parser easily disagree
// on: markers and null fields inside strings, escapes next to quotes,
// nesting, truncation, CRLF.
func trickyLines() []struct {
	name string
	line string
	ok   bool
} {
	rep := func(old, new string) string {
		if !strings.Contains(scanBase, old) {
			panic(old)
		}
		return strings.Replace(scanBase, old, new, 1)
	}
	content := func(text string) string { return rep(`"text":"hi"`, `"text":`+text) }
	return []struct {
		name string
		line string
		ok   bool
	}{
		{"plain", scanBase, true},
		{"CRLF", scanBase + "\r", true},
		{"spaces around", "  " + scanBase + " \t", true},
		{"escaped quotes in text", content(`"say \"hi\" \\\\ \\\" done"`), true},
		{"backslash before closing quote", content(`"ends with a backslash \\"`), true},
		{"marker inside a string only", strings.Replace(rep(`"text":"hi"`, `"text":"\"usage\":{"`), `"usage":{"input`, `"usagE":{"input`, 1), false},
		{"marker escaped inside text", content(`"x \"usage\":{\"input_tokens\":1}"`), true},
		{"marker as a key with an escaped quote", content(`{"a\"usage":{"b":1}}`), true},
		// The marker is a byte pattern: here only a nested key holds it, and
		// the usage object (written with a space) is still read.
		{"marker only in a nested key", strings.Replace(content(`{"x\"usage":{"b":1}}`), `"usage":{"input`, `"usage": {"input`, 1), true},
		{"usage with a space", rep(`"usage":{`, `"usage": {`), false},
		{"usage with an escaped key", rep(`"usage":{`, `"\u0075sage":{`), false},
		{"null field in a nested object", content(`{"cwd":null}`), false},
		{"null field as a value", content(`"id\":null"`), true},
		{"null field escaped in text", content(`"{\"id\":null}"`), true},
		{"null field after an escaped quote in a key", content(`{"a\"id":null}`), false},
		{"null field with a space", content(`{"cwd": null}`), true},
		{"other keys null", content(`{"cwdx":null,"xcwd":null}`), true},
		{"stop_reason null", scanBase, true},
		{"deep nesting", content(`[[[[{"a":[{"b":{"c":[1,2,{"d":"}]"}]}}]}]]]]`), true},
		{"brackets in strings", content(`"]}]}{[{["`), true},
		{"unbalanced brackets", content(`[{"a":1]`), false},
		{"unterminated string", content(`"abc`), false},
		{"bad escape in a key", rep(`"cwd":"/w"`, `"c\qwd":"/w"`), false},
		{"good escape in a key", rep(`"timestamp"`, `"time\u0073tamp"`), true},
		{"escaped timestamp value", rep(`"2026-01-09T10:00:00.000Z"`, `"2026-01-09T10:00:00.000\u005a"`), true},
		{"duplicate message key", rep(`"uuid":"u"`, `"message":{"usage":{"input_tokens":9,"output_tokens":9}}`), true},
		{"message null", rep(`"uuid":"u"`, `"message":null`), true},
		{"usage null", rep(`"uuid":"u"`, `"message":{"usage":null}`), false},
		{"cost", rep(`"uuid":"u"`, `"costUSD":0.25`), true},
		{"bad cost", rep(`"uuid":"u"`, `"costUSD":"0.25"`), false},
		{"api error with reset", rep(`"uuid":"u"`, `"isApiErrorMessage":true,"x":"Claude AI usage limit reached|1767960000"`), true},
		{"non-ASCII text", content(`"héllo \u00e9 ✓ \ud83d\ude00"`), true},
		{"number values", content(`[1,-2.5e3,0,true,false,null]`), true},
		{"empty", "", false},
		{"not an object", `["usage":{}]`, false},
		{"garbage after", scanBase + `{}`, false},
	}
}

func TestParseLineTricky(t *testing.T) {
	for _, c := range trickyLines() {
		var e rawEntry
		got := parseLine([]byte(c.line), &e)
		if got != c.ok {
			t.Errorf("%s: ok = %v, want %v", c.name, got, c.ok)
		}
		checkSameAsReference(t, c.name, []byte(c.line))
	}
	var e rawEntry
	if !parseLine([]byte(scanBase+"\r"), &e) || e.In != 3 || e.Out != 4 || e.Cache5m != 1 || e.Cache1h != 4 || e.CacheRead != 6 ||
		string(e.MsgID) != "m" || string(e.ReqID) != "r" || string(e.SessID) != "s" || string(e.Model) != "claude-sonnet-4-5-20250929" {
		t.Errorf("CRLF line: %+v", e)
	}
}

// TestParseLineTruncated: every prefix of a counted line is rejected, as
// the reference parser does.
func TestParseLineTruncated(t *testing.T) {
	for _, c := range trickyLines() {
		if !c.ok {
			continue
		}
		for n := 0; n < len(c.line); n++ {
			line := []byte(c.line[:n])
			var e rawEntry
			if parseLine(line, &e) && strings.TrimSpace(c.line[n:]) != "" {
				t.Errorf("%s: prefix of %d bytes counted", c.name, n)
			}
			checkSameAsReference(t, c.name, line)
		}
	}
}

// TestParseLineMatchesReference compares the parser with the reference on
// every line of a generated corpus (malformed and truncated lines included).
func TestParseLineMatchesReference(t *testing.T) {
	dir := t.TempDir()
	if _, err := corpus.Generate(dir, corpus.Config{Seed: 7, Projects: 2, Sessions: 3, Turns: 60}); err != nil {
		t.Fatal(err)
	}
	n := 0
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			checkSameAsReference(t, p, sc.Bytes())
			n++
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 500 {
		t.Fatalf("only %d lines", n)
	}
}

func FuzzParseLine(f *testing.F) {
	for _, c := range trickyLines() {
		f.Add([]byte(c.line))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		checkSameAsReference(t, "fuzz", line)
	})
}

func checkSameAsReference(t *testing.T, name string, line []byte) {
	t.Helper()
	var got, want rawEntry
	okGot := parseLine(line, &got)
	okWant := refParseLine(line, &want)
	if okGot != okWant {
		t.Fatalf("%s: ok = %v, reference %v on %q", name, okGot, okWant, line)
	}
	if okGot && !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: entry %+v, reference %+v on %q", name, got, want, line)
	}
}

// TestHasMarker: the word-at-a-time search agrees with bytes.Contains for
// the marker at every position of lines of every length up to 40, among
// other 'g's and partial markers.
func TestHasMarker(t *testing.T) {
	fills := []string{"x", "g", `"usag`, `sage":{`, "gg"}
	for n := 0; n <= 40; n++ {
		for _, fill := range fills {
			base := []byte(strings.Repeat(fill, n)[:n])
			if got, want := hasMarker(base), bytes.Contains(base, usageMarker); got != want {
				t.Fatalf("%q: %v, want %v", base, got, want)
			}
			for at := 0; at+len(usageMarker) <= n; at++ {
				line := append([]byte(nil), base...)
				copy(line[at:], usageMarker)
				if !hasMarker(line) {
					t.Fatalf("%q: marker at %d not found", line, at)
				}
				line[at+len(usageMarker)-1] = '['
				if got, want := hasMarker(line), bytes.Contains(line, usageMarker); got != want {
					t.Fatalf("%q: %v, want %v", line, got, want)
				}
			}
		}
	}
}

// TestScanPrint: the prefix print a scan makes from the bytes it kept is
// PrefixPrint of the file, for files around the print's spans and the read
// buffer, with and without an unterminated last line.
func TestScanPrint(t *testing.T) {
	dir := t.TempDir()
	sc := newScanner()
	sc.buf = make([]byte, 5000) // small: many regions, some shorter than a span
	for _, size := range []int{0, 1, 100, 4095, 4096, 4097, 6000, 8191, 8192, 8193, 12000, 40000} {
		for _, lineLen := range []int{1, 37, 4500, 9000} {
			for _, unterminated := range []bool{false, true} {
				var b []byte
				for k := 0; len(b) < size; k++ {
					n := min(lineLen, size-len(b))
					line := bytes.Repeat([]byte{byte('a' + k%26)}, n)
					if !unterminated || len(b)+n < size {
						line[n-1] = '\n'
					}
					b = append(b, line...)
				}
				p := filepath.Join(dir, "f.jsonl")
				if err := os.WriteFile(p, b, 0o644); err != nil {
					t.Fatal(err)
				}
				_, off, print, _, err := sc.scanJob(p, int64(len(b)), job{save: true}, nil)
				if err != nil {
					t.Fatal(err)
				}
				f, err := os.Open(p)
				if err != nil {
					t.Fatal(err)
				}
				want, err := PrefixPrint(f, off)
				f.Close()
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(print, want) {
					t.Errorf("size %d, lines of %d, unterminated %v: print %x, want %x", size, lineLen, unterminated, print, want)
				}
			}
		}
	}
}
