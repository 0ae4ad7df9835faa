package usage

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"strconv"
)

// lineParser reads one transcript line in a single pass. It decodes the
// few fields a report needs and skips everything else without building
// values; the skip checks that strings end and brackets match, so a
// truncated line is rejected like a JSON decoder would.
//
// ccusage drops a line where `"<field>":null` appears anywhere in it for
// some fields; that byte pattern is decided during the same pass instead of
// by a search over the line. It is a quote, a colon and "null", with a
// letter before the quote (so it is not an escaped quote): every such
// quote in a line the parse accepts closes a string the parser walks.
// Where the parser reads objects itself (the line, message, usage), a
// value's closing quote cannot be followed by a colon in a line it
// accepts, so only the closing quotes of keys are tested; inside skipped
// values the quotes of every string are (opening ones too: what lies
// between strings there is not read). A line the parse rejects is not
// counted whatever the pattern says.
type lineParser struct {
	b       []byte
	i       int
	dropped bool // the line contains "<field>":null for a field of nullFields
}

const (
	swarOnes  = 0x0101010101010101
	swarHighs = 0x8080808080808080
	swarQuote = 0x2222222222222222 // '"' in every byte
	swarBack  = 0x5c5c5c5c5c5c5c5c // '\\' in every byte
)

// patterns tests the null pattern at the quote at k, which a colon
// follows.
func (p *lineParser) patterns(k int) {
	b := p.b
	if p.dropped || len(b)-k < len(nullSuffix) || string(b[k+2:k+6]) != "null" {
		return
	}
	for _, f := range nullFields {
		start := k - len(f)
		if start >= 1 && b[start-1] == '"' && string(b[start:k]) == f {
			p.dropped = true
			return
		}
	}
}

// stopMask flags (in the high bit of its byte) the first quote or
// backslash among the eight bytes of x, little-endian; bytes after the
// first flagged one may be flagged wrongly (borrows), the first is exact.
func stopMask(x uint64) uint64 {
	q := x ^ swarQuote
	s := x ^ swarBack
	return (((q - swarOnes) &^ q) | ((s - swarOnes) &^ s)) & swarHighs
}

// stringEnd returns the index of the quote closing the string whose
// contents start at start (-1 when the line ends first) and whether the
// contents hold a backslash (an escape). Most strings of a line are short
// (keys, ids): their first 64 bytes are tested eight at a time for a
// quote or a backslash. A longer string, or one with an escape, is searched
// for quotes with IndexByte; a quote ends it when an even number of
// backslashes precedes it.
func stringEnd(b []byte, start int) (int, bool) {
	i := start
	for n := 0; n < 8 && i+8 <= len(b); n++ {
		if m := stopMask(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			k := i + bits.TrailingZeros64(m)>>3
			if b[k] == '"' {
				return k, false
			}
			return quoteEnd(b, start, k), true
		}
		i += 8
	}
	k := quoteEnd(b, start, i)
	return k, k >= 0 && bytes.IndexByte(b[start:k], '\\') >= 0
}

// quoteEnd finds the closing quote of the string starting at start,
// searching from i (no quote lies in [start, i)).
func quoteEnd(b []byte, start, i int) int {
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return -1
		}
		k := i + j
		m := k - 1
		for m >= start && b[m] == '\\' {
			m--
		}
		if (k-1-m)%2 == 0 {
			return k
		}
		i = k + 1
	}
}

func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipWS(b []byte, i int) int {
	for i < len(b) && isWS(b[i]) {
		i++
	}
	return i
}

func (p *lineParser) end() bool {
	p.i = skipWS(p.b, p.i)
	return p.i == len(p.b)
}

// str reads a string and returns its contents (unescaped when needed).
func (p *lineParser) str() ([]byte, bool) {
	b, i := p.b, p.i
	if i >= len(b) || b[i] != '"' {
		return nil, false
	}
	end, esc := stringEnd(b, i+1)
	if end < 0 {
		return nil, false
	}
	p.i = end + 1
	if esc {
		return unescape(b[i : end+1])
	}
	return b[i+1 : end], true
}

// unescape decodes a quoted string holding escapes (rare in the fields
// read); a bad escape rejects the line, as a JSON decoder would.
func unescape(quoted []byte) ([]byte, bool) {
	var s string
	if err := json.Unmarshal(quoted, &s); err != nil {
		return nil, false
	}
	return []byte(s), true
}

func (p *lineParser) null() bool {
	if len(p.b)-p.i >= 4 && string(p.b[p.i:p.i+4]) == "null" {
		p.i += 4
		return true
	}
	return false
}

func (p *lineParser) strOrNull() ([]byte, bool) {
	if p.null() {
		return nil, true
	}
	s, ok := p.str()
	if ok && s == nil {
		s = []byte{}
	}
	return s, ok
}

func (p *lineParser) boolOrNull() (bool, bool) {
	switch {
	case p.null():
		return false, true
	case len(p.b)-p.i >= 4 && string(p.b[p.i:p.i+4]) == "true":
		p.i += 4
		return true, true
	case len(p.b)-p.i >= 5 && string(p.b[p.i:p.i+5]) == "false":
		p.i += 5
		return false, true
	}
	return false, false
}

// uint reads a non-negative integer (a float, a negative number or a string
// is rejected, as a u64 field is).
func (p *lineParser) uint() (int64, bool) {
	b, i := p.b, p.i
	start := i
	var n int64
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		n = n*10 + int64(b[i]-'0')
		i++
		if n > 1<<53 {
			return 0, false
		}
	}
	p.i = i
	if i == start || (i-start > 1 && b[start] == '0') {
		return 0, false
	}
	if i < len(b) && !numDelim(b[i]) {
		return 0, false
	}
	return n, true
}

func numDelim(c byte) bool {
	return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

func (p *lineParser) float() (float64, bool) {
	start := p.i
	for p.i < len(p.b) {
		c := p.b[p.i]
		if (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
			p.i++
			continue
		}
		break
	}
	f, err := strconv.ParseFloat(string(p.b[start:p.i]), 64)
	return f, err == nil && p.i > start
}

// skip consumes any value of an object the parser reads itself.
func (p *lineParser) skip() bool {
	b, i := p.b, p.i
	if i >= len(b) {
		return false
	}
	switch c := b[i]; c {
	case '"':
		end := quoteEndShort(b, i+1)
		p.i = end + 1
		return end >= 0
	case '{', '[':
		return p.skipContainer()
	case 't':
		if len(b)-i >= 4 && string(b[i:i+4]) == "true" {
			p.i += 4
			return true
		}
		return false
	case 'f':
		if len(b)-i >= 5 && string(b[i:i+5]) == "false" {
			p.i += 5
			return true
		}
		return false
	case 'n':
		return p.null()
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			_, ok := p.float()
			return ok
		}
		return false
	}
}

// structural marks the bytes skipContainer stops at.
var structural = [256]bool{'"': true, '{': true, '}': true, '[': true, ']': true}

// skipContainer skips a nested object or array: strings are jumped over,
// brackets must match. Nothing else is checked (what lies between strings
// and brackets is not read), so both quotes of every string are tested for
// the patterns.
func (p *lineParser) skipContainer() bool {
	var stackBuf [64]byte
	stack := stackBuf[:0]
	b := p.b
	i := p.i
	for {
		for i < len(b) && !structural[b[i]] {
			i++
		}
		if i >= len(b) {
			return false
		}
		switch c := b[i]; c {
		case '"':
			if i+1 < len(b) && b[i+1] == ':' {
				p.patterns(i)
			}
			end := quoteEndShort(b, i+1)
			if end < 0 {
				return false
			}
			if i = end + 1; i < len(b) && b[i] == ':' {
				p.patterns(end)
			}
			continue
		case '{':
			stack = append(stack, '}')
		case '[':
			stack = append(stack, ']')
		default: // '}', ']'
			if len(stack) == 0 || stack[len(stack)-1] != c {
				return false
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				p.i = i + 1
				return true
			}
		}
		i++
	}
}

// quoteEndShort is stringEnd without the escape flag, for strings that are
// skipped: eight bytes at a time it looks for quotes only (escapes are
// rarer than quotes' end; a quote found is checked for the backslashes
// before it), then with IndexByte for a long string.
func quoteEndShort(b []byte, start int) int {
	i := start
	for n := 0; n < 8 && i+8 <= len(b); n++ {
		x := binary.LittleEndian.Uint64(b[i:]) ^ swarQuote
		if m := (x - swarOnes) &^ x & swarHighs; m != 0 {
			k := i + bits.TrailingZeros64(m)>>3
			if b[k-1] != '\\' {
				return k
			}
			return quoteEnd(b, start, k)
		}
		i += 8
	}
	return quoteEnd(b, start, i)
}

// open reads the start of an object; empty when it is {}.
func (p *lineParser) open() (ok, empty bool) {
	b := p.b
	i := skipWS(b, p.i)
	if i >= len(b) || b[i] != '{' {
		return false, false
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		p.i = i + 1
		return true, true
	}
	p.i = i
	return true, false
}

// key reads `"key":` and leaves p at the value. The key's closing quote
// is where the patterns can occur in an object the parser reads itself.
func (p *lineParser) key() ([]byte, bool) {
	b := p.b
	i := skipWS(b, p.i)
	if i >= len(b) || b[i] != '"' {
		return nil, false
	}
	end, esc := stringEnd(b, i+1)
	if end < 0 {
		return nil, false
	}
	j := end + 1
	if j+1 < len(b) && b[j] == ':' {
		// The usual `"key":` with no space: the place of the patterns.
		if b[j+1] == 'n' {
			p.patterns(end)
		}
	} else if j = skipWS(b, j); j >= len(b) || b[j] != ':' {
		return nil, false
	}
	p.i = skipWS(b, j+1)
	if esc {
		return unescape(b[i : end+1])
	}
	return b[i+1 : end], true
}

// next reads what follows a value in an object: more is true after a
// comma, false after the closing brace.
func (p *lineParser) next() (more, ok bool) {
	if p.i < len(p.b) && p.b[p.i] == ',' {
		p.i++
		return true, true
	}
	return p.nextSlow()
}

func (p *lineParser) nextSlow() (more, ok bool) {
	b := p.b
	i := skipWS(b, p.i)
	if i >= len(b) {
		return false, false
	}
	switch b[i] {
	case ',':
		p.i = i + 1
		return true, true
	case '}':
		p.i = i + 1
		return false, true
	}
	return false, false
}
