package usage

// An oracle for the hand-written line scanner (scan.go, linelex.go) that
// shares none of its lexing: encoding/json decodes the line into maps of
// raw values and the fields are read from those by the rules of ccusage's
// schema, written out again here. Only the field formats that are not
// JSON (parseTimestamp, semverLike) are reused.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/warden-dev/warden/internal/usage/corpus"
)

// oracleNullFields: ccusage drops a line where "<field>":null appears
// anywhere in its bytes (its schema rejects null for these fields, at any
// depth it looks).
var oracleNullFields = []string{"id", "cwd", "model", "speed", "costUSD", "version", "sessionId",
	"requestId", "isApiErrorMessage", "cache_read_input_tokens", "cache_creation_input_tokens"}

var jsonUint = regexp.MustCompile(`^(0|[1-9][0-9]*)$`)

// oracleComparable says whether encoding/json and the scanner can be
// compared on line at all:
//   - invalid JSON: the scanner only matches the brackets of content it
//     skips (message content, tool results; skipContainer in linelex.go),
//     by design — Claude Code writes lines with JSON.stringify, and
//     checking every byte of the bulk of a transcript would cost the
//     scan its speed. So `{"x":[{{}}], …}` is counted where JSON.parse
//     fails (testdata/fuzz/FuzzParseLineJSON/invalid-inside-skipped-content).
//     Malformed lines are held to the expectations in trickyLines and to
//     the reference parser instead (TestParseLineTruncated, FuzzParseLine);
//   - invalid UTF-8: the scanner keeps the bytes where encoding/json
//     substitutes U+FFFD;
//   - an object with a repeated key: the scanner merges the repeats key by
//     key, JSON.parse keeps the last value whole.
func oracleComparable(line []byte) bool {
	if !json.Valid(line) || !utf8.Valid(line) {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	type frame struct {
		obj    bool
		keys   map[string]bool
		expect bool // next string token in an object is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return true
		}
		if err != nil {
			return false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		isKey := top != nil && top.obj && top.expect
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				stack = append(stack, &frame{obj: true, keys: map[string]bool{}, expect: true})
			case '[':
				stack = append(stack, &frame{})
			default:
				stack = stack[:len(stack)-1]
				if len(stack) > 0 && stack[len(stack)-1].obj {
					stack[len(stack)-1].expect = true
				}
			}
			continue
		case string:
			if isKey {
				if top.keys[t] {
					return false
				}
				top.keys[t] = true
				top.expect = false
				continue
			}
		}
		if top != nil && top.obj {
			top.expect = true
		}
	}
}

// oracleParse reads line as ccusage would, through encoding/json.
func oracleParse(line []byte) (rawEntry, bool) {
	var e rawEntry
	if !bytes.Contains(line, []byte(`"usage":{`)) {
		return e, false
	}
	for _, f := range oracleNullFields {
		if bytes.Contains(line, []byte(`"`+f+`":null`)) {
			return e, false
		}
	}
	if t := bytes.TrimLeft(line, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return e, false
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(line, &top) != nil {
		return e, false
	}
	isNull := func(r json.RawMessage) bool { return string(r) == "null" }
	str := func(r json.RawMessage) ([]byte, bool) {
		var s string
		if r[0] != '"' || json.Unmarshal(r, &s) != nil {
			return nil, false
		}
		return []byte(s), true
	}
	strOrNull := func(r json.RawMessage, dst *[]byte) bool {
		if isNull(r) {
			return true
		}
		s, ok := str(r)
		if ok {
			*dst = s
		}
		return ok
	}
	boolOrNull := func(r json.RawMessage, dst *bool) bool {
		if isNull(r) {
			*dst = false
			return true
		}
		return json.Unmarshal(r, dst) == nil && (string(r) == "true" || string(r) == "false")
	}
	uint53 := func(r json.RawMessage, dst *int64) bool {
		if !jsonUint.Match(r) {
			return false
		}
		n, err := strconv.ParseInt(string(r), 10, 64)
		if err != nil || n > 1<<53 {
			return false
		}
		*dst = n
		return true
	}
	object := func(r json.RawMessage) (map[string]json.RawMessage, bool) {
		var m map[string]json.RawMessage
		if r[0] != '{' || json.Unmarshal(r, &m) != nil {
			return nil, false
		}
		return m, true
	}

	var apiErr bool
	var sess, req, msgID, model []byte
	ts, haveTS := top["timestamp"]
	if !haveTS {
		return e, false
	}
	s, ok := str(ts)
	if !ok {
		return e, false
	}
	if e.TS, ok = parseTimestamp(s); !ok {
		return e, false
	}
	if r, ok := top["sessionId"]; ok && !strOrNull(r, &sess) {
		return e, false
	}
	if r, ok := top["requestId"]; ok && !strOrNull(r, &req) {
		return e, false
	}
	if r, ok := top["version"]; ok {
		var v []byte
		if !strOrNull(r, &v) || (v != nil && !semverLike(v)) {
			return e, false
		}
	}
	if r, ok := top["isSidechain"]; ok && !boolOrNull(r, &e.Sidechain) {
		return e, false
	}
	if r, ok := top["isApiErrorMessage"]; ok && !boolOrNull(r, &apiErr) {
		return e, false
	}
	if r, ok := top["costUSD"]; ok && !isNull(r) {
		var f float64
		if r[0] == '"' || json.Unmarshal(r, &f) != nil {
			return e, false
		}
		e.CostUSD, e.HasCost = f, true
	}
	var haveIn, haveOut bool
	if r, ok := top["message"]; ok && !isNull(r) {
		msg, ok := object(r)
		if !ok {
			return e, false
		}
		if r, ok := msg["id"]; ok && !strOrNull(r, &msgID) {
			return e, false
		}
		if r, ok := msg["model"]; ok && !strOrNull(r, &model) {
			return e, false
		}
		if r, ok := msg["usage"]; ok {
			u, ok := object(r)
			if !ok {
				return e, false
			}
			if r, ok := u["input_tokens"]; ok {
				if haveIn = uint53(r, &e.In); !haveIn {
					return e, false
				}
			}
			if r, ok := u["output_tokens"]; ok {
				if haveOut = uint53(r, &e.Out); !haveOut {
					return e, false
				}
			}
			var cc, c5, c1 int64
			var have5, have1, breakdown bool
			if r, ok := u["cache_creation_input_tokens"]; ok && !isNull(r) && !uint53(r, &cc) {
				return e, false
			}
			if r, ok := u["cache_read_input_tokens"]; ok && !isNull(r) && !uint53(r, &e.CacheRead) {
				return e, false
			}
			if r, ok := u["speed"]; ok {
				var sp []byte
				if !strOrNull(r, &sp) {
					return e, false
				}
				if sp != nil {
					e.HasSpeed, e.Fast = true, string(sp) == "fast"
				}
			}
			if r, ok := u["cache_creation"]; ok && !isNull(r) {
				c, ok := object(r)
				if !ok {
					return e, false
				}
				breakdown = true
				if r, ok := c["ephemeral_5m_input_tokens"]; ok && !isNull(r) {
					if have5 = uint53(r, &c5); !have5 {
						return e, false
					}
				}
				if r, ok := c["ephemeral_1h_input_tokens"]; ok && !isNull(r) {
					if have1 = uint53(r, &c1); !have1 {
						return e, false
					}
				}
			}
			if breakdown && (have5 || have1) {
				e.Cache5m, e.Cache1h = c5, c1
			} else {
				e.Cache5m = cc
			}
		}
	}
	if !haveIn || !haveOut {
		return e, false
	}
	for _, f := range []struct {
		v   []byte
		dst *[]byte
	}{{sess, &e.SessID}, {req, &e.ReqID}, {msgID, &e.MsgID}, {model, &e.Model}} {
		if f.v != nil && len(f.v) == 0 {
			return e, false // present but empty: ccusage's schema wants a non-empty string
		}
		*f.dst = f.v
	}
	if apiErr {
		const marker = "Claude AI usage limit reached|"
		if i := bytes.Index(line, []byte(marker)); i >= 0 {
			rest := line[i+len(marker):]
			n := 0
			for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
				n++
			}
			e.Reset, _ = strconv.ParseInt(string(rest[:n]), 10, 64)
		}
	}
	return e, true
}

// checkSameAsJSON fails when the scanner and the encoding/json oracle
// disagree on line; it reports whether the line was comparable.
func checkSameAsJSON(t *testing.T, name string, line []byte) (compared, counted bool) {
	t.Helper()
	if !oracleComparable(line) {
		return false, false
	}
	var got rawEntry
	okGot := parseLine(line, &got)
	want, okWant := oracleParse(line)
	if okGot != okWant {
		t.Fatalf("%s: scanner ok = %v, encoding/json oracle %v on %q", name, okGot, okWant, line)
	}
	if okGot {
		same := got.TS == want.TS && bytes.Equal(got.MsgID, want.MsgID) && bytes.Equal(got.ReqID, want.ReqID) &&
			bytes.Equal(got.SessID, want.SessID) && bytes.Equal(got.Model, want.Model) &&
			got.In == want.In && got.Out == want.Out && got.Cache5m == want.Cache5m && got.Cache1h == want.Cache1h &&
			got.CacheRead == want.CacheRead && got.CostUSD == want.CostUSD && got.Reset == want.Reset &&
			got.HasCost == want.HasCost && got.Sidechain == want.Sidechain && got.HasSpeed == want.HasSpeed && got.Fast == want.Fast
		if !same {
			t.Fatalf("%s: scanner %+v, encoding/json oracle %+v on %q", name, got, want, line)
		}
	}
	return true, okGot
}

// TestParseLineMatchesJSON: the tricky lines, every generated corpus line
// and lines written with random formatting agree with encoding/json.
func TestParseLineMatchesJSON(t *testing.T) {
	for _, c := range trickyLines() {
		if cmp, counted := checkSameAsJSON(t, c.name, []byte(c.line)); cmp && counted != c.ok {
			t.Errorf("%s: counted %v, want %v", c.name, counted, c.ok)
		}
	}
	dir := t.TempDir()
	if _, err := corpus.Generate(dir, corpus.Config{Seed: 11, Projects: 2, Sessions: 3, Turns: 60}); err != nil {
		t.Fatal(err)
	}
	lines, counted := 0, 0
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			if _, ok := checkSameAsJSON(t, p, sc.Bytes()); ok {
				counted++
			}
			lines++
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if lines < 500 || counted < lines/10 {
		t.Fatalf("corpus: %d lines, %d counted: too few to compare", lines, counted)
	}
	r := rand.New(rand.NewPCG(21, 26))
	compared, counted := 0, 0
	for i := 0; i < 4000; i++ {
		line := randomLine(r)
		cmp, ok := checkSameAsJSON(t, fmt.Sprintf("random line %d", i), line)
		if cmp {
			compared++
		}
		if ok {
			counted++
		}
	}
	// The generator must exercise both outcomes, or the comparison says little.
	if compared < 3000 || counted < 400 || counted > compared-400 {
		t.Fatalf("random lines: %d compared, %d counted", compared, counted)
	}
}

// FuzzParseLineJSON compares the scanner with encoding/json on arbitrary
// lines (seeds: testdata/fuzz/FuzzParseLineJSON and the tricky lines).
// `go test -fuzz FuzzParseLineJSON ./internal/usage` explores further;
// make test runs the seeds only.
func FuzzParseLineJSON(f *testing.F) {
	for _, c := range trickyLines() {
		f.Add([]byte(c.line))
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20; i++ {
		f.Add(randomLine(r))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		checkSameAsJSON(t, "fuzz", line)
	})
}

// randomLine writes a transcript line with random formatting: whitespace
// between tokens, escaped characters (\uXXXX, \/, surrogate pairs) in keys
// and values, non-ASCII text, nested content, fields missing, null or of
// the wrong type, keys in any order.
func randomLine(r *rand.Rand) []byte {
	w := &lineWriter{r: r, escapeOne: 8}
	maybe := func(p float64) bool { return r.Float64() < p }
	num := func() {
		if maybe(0.9) {
			w.raw(strconv.Itoa(r.IntN(200000)))
			return
		}
		switch r.IntN(7) {
		case 0:
			w.raw("null")
		case 1:
			w.raw("-1")
		case 2:
			w.raw("1.5")
		case 3:
			w.raw("1e3")
		case 4:
			w.str("7")
		case 5:
			w.raw("9007199254740993")
		default:
			w.raw(strconv.Itoa(r.IntN(200000)))
		}
	}
	text := func() {
		parts := []string{"hi", "héllo", "✓", "😀", `"quoted"`, `back\slash`, "usage", `"usage":{`, "\t", "/path/x", "", "}]"}
		var b strings.Builder
		for n := r.IntN(4); n >= 0; n-- {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		w.str(b.String())
	}
	var nested func(depth int)
	nested = func(depth int) {
		if depth > 3 || maybe(0.3) {
			switch r.IntN(5) {
			case 0:
				num()
			case 1:
				w.raw([]string{"true", "false", "null"}[r.IntN(3)])
			default:
				text()
			}
			return
		}
		if maybe(0.5) {
			w.array(r.IntN(4), func(int) { nested(depth + 1) })
			return
		}
		keys := []string{"type", "text", "a", "b", "input", "content"}
		w.object(r.IntN(4), func(i int) { w.key(keys[r.IntN(len(keys))] + strconv.Itoa(i)); nested(depth + 1) })
	}
	strOr := func(vals ...string) func() {
		return func() {
			switch {
			case maybe(0.02):
				w.raw("null")
			case maybe(0.02):
				num()
			case maybe(0.75):
				w.str(vals[0]) // the usual value; the others are odd ones
			default:
				w.str(vals[r.IntN(len(vals))])
			}
		}
	}
	usage := []kv{
		{"input_tokens", num}, {"output_tokens", num},
		{"cache_creation_input_tokens", num}, {"cache_read_input_tokens", num},
		{"speed", strOr("fast", "standard", "")},
		{"cache_creation", func() {
			if maybe(0.1) {
				w.raw("null")
				return
			}
			w.fields([]kv{{"ephemeral_5m_input_tokens", num}, {"ephemeral_1h_input_tokens", num}}, r, 0.2)
		}},
		{"service_tier", strOr("standard")},
	}
	message := []kv{
		{"id", strOr("msg_01", "msg_02", "")},
		{"model", strOr("claude-sonnet-4-5-20250929", "claude-opus-4-1", "<synthetic>")},
		{"type", strOr("message")},
		{"content", func() { nested(0) }},
		{"usage", func() {
			if maybe(0.04) {
				w.raw("null")
				return
			}
			w.fields(usage, r, 0.1)
		}},
	}
	topFields := []kv{
		{"timestamp", strOr("2026-01-09T10:00:00.000Z", "2026-01-09T10:00:00Z", "2026-01-09T12:00:00.5+02:00", "2026-01-09T10:00:00.000Z", "yesterday")},
		{"sessionId", strOr("sess-1", "s", "")},
		{"requestId", strOr("req_1", "")},
		{"version", strOr("2.1.330", "1.0", "2.0.0-beta")},
		{"isSidechain", func() { w.raw(rare(r, []string{"true", "false"}, "null", `"no"`)) }},
		{"isApiErrorMessage", func() { w.raw(rare(r, []string{"true", "false"}, "null")) }},
		{"costUSD", func() {
			switch r.IntN(20) {
			case 0:
				w.raw("null")
			case 1:
				w.str("0.25")
			default:
				w.raw(strconv.FormatFloat(r.Float64(), 'g', -1, 64))
			}
		}},
		{"cwd", strOr("/w", "/home/ü")},
		{"x", func() { w.str("Claude AI usage limit reached|" + strconv.Itoa(1767960000+r.IntN(1000))) }},
		{"message", func() {
			if maybe(0.03) {
				w.raw("null")
				return
			}
			w.fields(message, r, 0.05)
		}},
		{"toolUseResult", func() { nested(0) }},
	}
	w.fields(topFields, r, 0.08)
	if maybe(0.03) {
		w.raw("{}") // garbage after the object
	}
	w.ws()
	return w.b.Bytes()
}

// rare picks one of usual, or one of odd one time in 40.
func rare(r *rand.Rand, usual []string, odd ...string) string {
	if r.IntN(40) == 0 {
		return odd[r.IntN(len(odd))]
	}
	return usual[r.IntN(len(usual))]
}

// kv is a field randomLine may write: its key and a writer of its value.
type kv struct {
	k string
	v func()
}

// lineWriter writes JSON with random whitespace and escapes.
type lineWriter struct {
	r *rand.Rand
	b bytes.Buffer
	// escapeOne is the chance of writing a character escaped.
	escapeOne int
}

func (w *lineWriter) ws() {
	if w.r.IntN(30) == 0 {
		w.b.WriteString([]string{" ", "\t", "  ", "\r\n", " \n"}[w.r.IntN(5)])
	}
}

func (w *lineWriter) raw(s string) { w.ws(); w.b.WriteString(s); w.ws() }

func (w *lineWriter) str(s string) {
	w.ws()
	w.b.WriteByte('"')
	for _, c := range s {
		switch {
		case c == '"' || c == '\\':
			w.b.WriteByte('\\')
			w.b.WriteRune(c)
		case c < 0x20:
			fmt.Fprintf(&w.b, `\u%04x`, c)
		case c == '/' && w.r.IntN(3) == 0:
			w.b.WriteString(`\/`)
		case w.escapeOne > 0 && w.r.IntN(w.escapeOne) == 0:
			if c > 0xffff {
				c1, c2 := utf16Pair(c)
				fmt.Fprintf(&w.b, `\u%04x\u%04X`, c1, c2)
			} else {
				fmt.Fprintf(&w.b, `\u%04x`, c)
			}
		default:
			w.b.WriteRune(c)
		}
	}
	w.b.WriteByte('"')
	w.ws()
}

func utf16Pair(c rune) (rune, rune) {
	c -= 0x10000
	return 0xd800 + (c>>10)&0x3ff, 0xdc00 + c&0x3ff
}

// key writes an object key, rarely escaped: an escaped "usage" is a line
// ccusage skips (no marker).
func (w *lineWriter) key(k string) {
	w.escapeOne = 400
	w.str(k)
	w.escapeOne = 8
	w.b.WriteByte(':')
}

func (w *lineWriter) object(n int, each func(i int)) {
	w.raw("{")
	for i := 0; i < n; i++ {
		if i > 0 {
			w.b.WriteByte(',')
		}
		each(i)
	}
	w.raw("}")
}

func (w *lineWriter) array(n int, each func(i int)) {
	w.raw("[")
	for i := 0; i < n; i++ {
		if i > 0 {
			w.b.WriteByte(',')
		}
		each(i)
	}
	w.raw("]")
}

// fields writes an object of fs in random order, each left out with
// probability drop.
func (w *lineWriter) fields(fs []kv, r *rand.Rand, drop float64) {
	order := r.Perm(len(fs))
	var keep []int
	for _, i := range order {
		if r.Float64() >= drop {
			keep = append(keep, i)
		}
	}
	w.object(len(keep), func(i int) { w.key(fs[keep[i]].k); fs[keep[i]].v() })
}
