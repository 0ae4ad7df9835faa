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
// Two byte patterns of the whole line are decided during the same pass
// instead of by searches over the line: the usage marker `"usage":{` (a
// line without it is not counted) and `"<field>":null` for the fields
// ccusage drops a line for. Both patterns contain an unescaped quote
// followed by a colon (the byte before that quote is a letter, so it cannot
// be an escaped quote), and every unescaped quote of a line the parse
// accepts is the opening or closing quote of a string the parser walks;
// checking at those quotes finds exactly the occurrences a byte search
// would (a line the parse rejects is not counted either way).
type lineParser struct {
	b       []byte
	i       int
	marker  bool // the line contains the usage marker
	dropped bool // the line contains "<field>":null for a field of nullFields
}

// atQuote is called for every unescaped quote at k (opening or closing).
func (p *lineParser) atQuote(k int) {
	b := p.b
	if k+2 >= len(b) || b[k+1] != ':' {
		return
	}
	switch b[k+2] {
	case 'n':
		if !p.dropped && len(b)-k >= len(nullSuffix) && string(b[k+2:k+6]) == "null" && nullKeyBefore(b, k) {
			p.dropped = true
		}
	case '{':
		if k >= 6 && string(b[k-6:k]) == `"usage` {
			p.marker = true
		}
	}
}

// nullKeyBefore: b[k] is the quote of `":null`; the bytes before it are
// `"<field>` for a field of nullFields.
func nullKeyBefore(b []byte, k int) bool {
	for _, f := range nullFields {
		start := k - len(f)
		if start >= 1 && b[start-1] == '"' && string(b[start:k]) == f {
			return true
		}
	}
	return false
}

const (
	swarOnes  = 0x0101010101010101
	swarHighs = 0x8080808080808080
	swarQuote = 0x2222222222222222 // '"' in every byte
	swarBack  = 0x5c5c5c5c5c5c5c5c // '\\' in every byte
)

// stringEnd returns the index of the quote closing the string whose
// contents start at i (-1 when the line ends first) and whether the
// contents hold a backslash. A backslash escapes the byte after it, so a
// quote ends the string when an even number of backslashes precedes it.
// Eight bytes are tested at a time for a quote or a backslash.
func stringEnd(b []byte, i int) (int, bool) {
	esc := false
	for {
		for i+8 <= len(b) {
			x := binary.LittleEndian.Uint64(b[i:])
			q := x ^ swarQuote
			s := x ^ swarBack
			// A byte of q or s is zero where x has a quote or a
			// backslash; the lowest flagged byte is exact (borrows only
			// spoil the bytes above a zero byte).
			m := ((q - swarOnes) &^ q) | ((s - swarOnes) &^ s)
			m &= swarHighs
			if m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				goto found
			}
			i += 8
		}
		for i < len(b) && b[i] != '"' && b[i] != '\\' {
			i++
		}
		if i >= len(b) {
			return -1, esc
		}
	found:
		if b[i] == '"' {
			return i, esc
		}
		esc = true
		i += 2
		if i > len(b) {
			return -1, esc
		}
	}
}

func (p *lineParser) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *lineParser) end() bool {
	p.ws()
	return p.i == len(p.b)
}

// rawStr reads a string at p.i and returns its raw contents and whether
// they hold escapes.
func (p *lineParser) rawStr() ([]byte, bool, bool) {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return nil, false, false
	}
	start := p.i + 1
	p.atQuote(p.i)
	end, esc := stringEnd(p.b, start)
	if end < 0 {
		return nil, false, false
	}
	p.atQuote(end)
	p.i = end + 1
	return p.b[start:end], esc, true
}

// str reads a string and returns its contents (unescaped when needed).
func (p *lineParser) str() ([]byte, bool) {
	raw, esc, ok := p.rawStr()
	if !ok || !esc {
		return raw, ok
	}
	var s string
	if err := json.Unmarshal(p.b[p.i-len(raw)-2:p.i], &s); err != nil {
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
	start := p.i
	var n int64
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		n = n*10 + int64(p.b[p.i]-'0')
		p.i++
		if n > 1<<53 {
			return 0, false
		}
	}
	if p.i == start || (p.i-start > 1 && p.b[start] == '0') {
		return 0, false
	}
	if p.i < len(p.b) && !numDelim(p.b[p.i]) {
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

// skip consumes any value.
func (p *lineParser) skip() bool {
	if p.i >= len(p.b) {
		return false
	}
	switch c := p.b[p.i]; c {
	case '"':
		_, _, ok := p.rawStr()
		return ok
	case '{', '[':
		return p.skipContainer()
	case 't':
		if len(p.b)-p.i >= 4 && string(p.b[p.i:p.i+4]) == "true" {
			p.i += 4
			return true
		}
		return false
	case 'f':
		if len(p.b)-p.i >= 5 && string(p.b[p.i:p.i+5]) == "false" {
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
// brackets must match.
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
			p.atQuote(i)
			end, _ := stringEnd(b, i+1)
			if end < 0 {
				return false
			}
			p.atQuote(end)
			i = end + 1
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

// open reads the start of an object; empty when it is {}.
func (p *lineParser) open() (ok, empty bool) {
	p.ws()
	if p.i >= len(p.b) || p.b[p.i] != '{' {
		return false, false
	}
	p.i++
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		return true, true
	}
	return true, false
}

// key reads `"key":` and leaves p at the value.
func (p *lineParser) key() ([]byte, bool) {
	p.ws()
	k, ok := p.str()
	if !ok {
		return nil, false
	}
	p.ws()
	if p.i >= len(p.b) || p.b[p.i] != ':' {
		return nil, false
	}
	p.i++
	p.ws()
	return k, true
}

// next reads what follows a value in an object: more is true after a
// comma, false after the closing brace.
func (p *lineParser) next() (more, ok bool) {
	p.ws()
	if p.i >= len(p.b) {
		return false, false
	}
	switch p.b[p.i] {
	case ',':
		p.i++
		return true, true
	case '}':
		p.i++
		return false, true
	}
	return false, false
}

// parseLine extracts an entry from one transcript line. ok is false when
// ccusage would skip the line: no usage marker, a dropped null field, a
// line that does not parse or lacks a needed field.
func parseLine(line []byte, e *rawEntry) bool {
	*e = rawEntry{}
	p := lineParser{b: line}
	var f fieldsSeen
	if !p.top(e, &f) || !p.end() || !p.marker || p.dropped {
		return false
	}
	if !f.ts || !f.in || !f.out {
		return false
	}
	if (f.sess && len(e.SessID) == 0) || (f.req && len(e.ReqID) == 0) ||
		(f.msgID && len(e.MsgID) == 0) || (f.model && len(e.Model) == 0) {
		return false
	}
	if f.apiErr {
		if i := bytes.Index(line, limitMarker); i >= 0 {
			n, _ := strconv.ParseInt(string(leadingDigits(line[i+len(limitMarker):])), 10, 64)
			e.Reset = n
		}
	}
	return true
}

// fieldsSeen says which fields a line had.
type fieldsSeen struct {
	ts, in, out, msgID, model, sess, req, apiErr bool
}

// top reads the line's object. A key that repeats is read again, the later
// value winning, as a JSON decoder does.
func (p *lineParser) top(e *rawEntry, f *fieldsSeen) bool {
	ok, empty := p.open()
	if !ok {
		return false
	}
	for !empty {
		key, ok := p.key()
		if !ok {
			return false
		}
		switch string(key) {
		case "timestamp":
			s, ok := p.str()
			if !ok {
				return false
			}
			if e.TS, f.ts = parseTimestamp(s); !f.ts {
				return false
			}
		case "sessionId":
			s, ok := p.strOrNull()
			if !ok {
				return false
			}
			if s != nil {
				e.SessID, f.sess = s, true
			}
		case "requestId":
			s, ok := p.strOrNull()
			if !ok {
				return false
			}
			if s != nil {
				e.ReqID, f.req = s, true
			}
		case "version":
			s, ok := p.strOrNull()
			if !ok || (s != nil && !semverLike(s)) {
				return false
			}
		case "isSidechain":
			if e.Sidechain, ok = p.boolOrNull(); !ok {
				return false
			}
		case "isApiErrorMessage":
			if f.apiErr, ok = p.boolOrNull(); !ok {
				return false
			}
		case "costUSD":
			if !p.null() {
				if e.CostUSD, e.HasCost = p.float(); !e.HasCost {
					return false
				}
			}
		case "message":
			if !p.null() && !p.message(e, f) {
				return false
			}
		default:
			if !p.skip() {
				return false
			}
		}
		more, ok := p.next()
		if !ok {
			return false
		}
		empty = !more
	}
	return true
}

func (p *lineParser) message(e *rawEntry, f *fieldsSeen) bool {
	ok, empty := p.open()
	if !ok {
		return false
	}
	for !empty {
		key, ok := p.key()
		if !ok {
			return false
		}
		switch string(key) {
		case "id":
			s, ok := p.strOrNull()
			if !ok {
				return false
			}
			if s != nil {
				e.MsgID, f.msgID = s, true
			}
		case "model":
			s, ok := p.strOrNull()
			if !ok {
				return false
			}
			if s != nil {
				e.Model, f.model = s, true
			}
		case "usage":
			if !p.usage(e, f) {
				return false
			}
		default:
			if !p.skip() {
				return false
			}
		}
		more, ok := p.next()
		if !ok {
			return false
		}
		empty = !more
	}
	return true
}

func (p *lineParser) usage(e *rawEntry, f *fieldsSeen) bool {
	var cc, c5, c1 int64
	var haveCC5, haveCC1, haveBreakdown bool
	ok, empty := p.open()
	if !ok {
		return false
	}
	for !empty {
		key, ok := p.key()
		if !ok {
			return false
		}
		switch string(key) {
		case "input_tokens":
			e.In, f.in = p.uint()
			ok = f.in
		case "output_tokens":
			e.Out, f.out = p.uint()
			ok = f.out
		case "cache_creation_input_tokens":
			if !p.null() {
				cc, ok = p.uint()
			}
		case "cache_read_input_tokens":
			if !p.null() {
				e.CacheRead, ok = p.uint()
			}
		case "speed":
			var s []byte
			s, ok = p.strOrNull()
			if s != nil {
				e.HasSpeed = true
				e.Fast = string(s) == "fast"
			}
		case "cache_creation":
			if !p.null() {
				haveBreakdown = true
				ok = p.cacheCreation(&c5, &c1, &haveCC5, &haveCC1)
			}
		default:
			ok = p.skip()
		}
		if !ok {
			return false
		}
		more, ok := p.next()
		if !ok {
			return false
		}
		empty = !more
	}
	if haveBreakdown && (haveCC5 || haveCC1) {
		e.Cache5m, e.Cache1h = c5, c1
	} else {
		e.Cache5m = cc
	}
	return true
}

func (p *lineParser) cacheCreation(c5, c1 *int64, have5, have1 *bool) bool {
	ok, empty := p.open()
	if !ok {
		return false
	}
	for !empty {
		key, ok := p.key()
		if !ok {
			return false
		}
		switch string(key) {
		case "ephemeral_5m_input_tokens":
			if !p.null() {
				*c5, ok = p.uint()
				*have5 = ok
			}
		case "ephemeral_1h_input_tokens":
			if !p.null() {
				*c1, ok = p.uint()
				*have1 = ok
			}
		default:
			ok = p.skip()
		}
		if !ok {
			return false
		}
		more, ok := p.next()
		if !ok {
			return false
		}
		empty = !more
	}
	return true
}
