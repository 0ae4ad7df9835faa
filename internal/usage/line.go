package usage

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// rawEntry is what one counted transcript line contributes, before
// duplicates are resolved.
type rawEntry struct {
	TS        int64  // unix milliseconds
	MsgID     []byte // message.id (nil = none: never deduplicated); points into the line
	ReqID     []byte // requestId (nil = absent)
	SessID    []byte // sessionId field
	Model     []byte // message.model, nil when absent
	In, Out   int64
	Cache5m   int64 // cache writes priced at the 5-minute rate (incl. plain cache_creation_input_tokens)
	Cache1h   int64
	CacheRead int64
	CostUSD   float64
	Reset     int64 // usage-limit reset, unix seconds, 0 = none
	HasCost   bool
	Sidechain bool
	HasSpeed  bool
	Fast      bool
}

var usageMarker = []byte(`"usage":{`)

// nullFields: ccusage drops a line where any of these appears as
// "<field>":null anywhere in it.
var nullFields = [...]string{"id", "cwd", "model", "speed", "costUSD", "version", "sessionId",
	"requestId", "isApiErrorMessage", "cache_read_input_tokens", "cache_creation_input_tokens"}

var nullSuffix = []byte(`":null`)

func hasDroppedNull(line []byte) bool {
	off := 0
	for {
		j := bytes.Index(line[off:], nullSuffix)
		if j < 0 {
			return false
		}
		end := off + j // index of the closing quote of the key
		for _, f := range nullFields {
			start := end - len(f)
			if start >= 1 && line[start-1] == '"' && string(line[start:end]) == f {
				return true
			}
		}
		off = end + len(nullSuffix)
	}
}

var limitMarker = []byte("Claude AI usage limit reached|")

// parseLine extracts an entry from one transcript line that contains the
// usage marker. ok is false when ccusage would skip the line.
func parseLine(line []byte, e *rawEntry) bool {
	if hasDroppedNull(line) {
		return false
	}
	*e = rawEntry{}
	p := parser{b: line}
	var haveTS, haveIn, haveOut, haveMsgID, haveModel, haveSess, haveReq, apiErr bool
	ok := p.object(func(key []byte) bool {
		switch string(key) {
		case "timestamp":
			s, ok := p.str()
			if !ok {
				return false
			}
			e.TS, ok = parseTimestamp(s)
			haveTS = ok
			return ok
		case "sessionId":
			s, ok := p.strOrNull()
			if s != nil {
				e.SessID, haveSess = s, true
			}
			return ok
		case "requestId":
			s, ok := p.strOrNull()
			if s != nil {
				e.ReqID, haveReq = s, true
			}
			return ok
		case "version":
			s, ok := p.strOrNull()
			if s != nil && !semverLike(s) {
				return false
			}
			return ok
		case "isSidechain":
			v, ok := p.boolOrNull()
			e.Sidechain = v
			return ok
		case "isApiErrorMessage":
			v, ok := p.boolOrNull()
			apiErr = v
			return ok
		case "costUSD":
			if p.null() {
				return true
			}
			f, ok := p.float()
			e.CostUSD, e.HasCost = f, ok
			return ok
		case "message":
			if p.null() {
				return true
			}
			return p.object(func(key []byte) bool {
				switch string(key) {
				case "id":
					s, ok := p.strOrNull()
					if s != nil {
						e.MsgID, haveMsgID = s, true
					}
					return ok
				case "model":
					s, ok := p.strOrNull()
					if s != nil {
						e.Model, haveModel = s, true
					}
					return ok
				case "usage":
					var cc int64
					var haveCC5, haveCC1, haveBreakdown bool
					var c5, c1 int64
					ok := p.object(func(key []byte) bool {
						var ok bool
						switch string(key) {
						case "input_tokens":
							e.In, ok = p.uint()
							haveIn = ok
						case "output_tokens":
							e.Out, ok = p.uint()
							haveOut = ok
						case "cache_creation_input_tokens":
							if p.null() {
								return true
							}
							cc, ok = p.uint()
						case "cache_read_input_tokens":
							if p.null() {
								return true
							}
							e.CacheRead, ok = p.uint()
						case "speed":
							s, ok2 := p.strOrNull()
							if s != nil {
								e.HasSpeed = true
								e.Fast = string(s) == "fast"
							}
							ok = ok2
						case "cache_creation":
							if p.null() {
								return true
							}
							haveBreakdown = true
							ok = p.object(func(key []byte) bool {
								var ok bool
								switch string(key) {
								case "ephemeral_5m_input_tokens":
									if p.null() {
										return true
									}
									c5, ok = p.uint()
									haveCC5 = ok
								case "ephemeral_1h_input_tokens":
									if p.null() {
										return true
									}
									c1, ok = p.uint()
									haveCC1 = ok
								default:
									ok = p.skip()
								}
								return ok
							})
						default:
							ok = p.skip()
						}
						return ok
					})
					if haveBreakdown && (haveCC5 || haveCC1) {
						e.Cache5m, e.Cache1h = c5, c1
					} else {
						e.Cache5m = cc
					}
					return ok
				default:
					return p.skip()
				}
			})
		default:
			return p.skip()
		}
	})
	if !ok || !p.end() {
		return false
	}
	if !haveTS || !haveIn || !haveOut {
		return false
	}
	if (haveSess && len(e.SessID) == 0) || (haveReq && len(e.ReqID) == 0) ||
		(haveMsgID && len(e.MsgID) == 0) || (haveModel && len(e.Model) == 0) {
		return false
	}
	if apiErr {
		if i := bytes.Index(line, limitMarker); i >= 0 {
			n, _ := strconv.ParseInt(string(leadingDigits(line[i+len(limitMarker):])), 10, 64)
			e.Reset = n
		}
	}
	return true
}

func leadingDigits(b []byte) []byte {
	i := 0
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return b[:i]
}

// semverLike: starts with N.N.N.
func semverLike(s []byte) bool {
	parts := 0
	i := 0
	for parts < 3 {
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i {
			return false
		}
		parts++
		i = j
		if parts < 3 {
			if i >= len(s) || s[i] != '.' {
				return false
			}
			i++
		}
	}
	return true
}

// parseTimestamp accepts YYYY-MM-DDTHH:MM:SS[.mmm](Z|±HH:MM), the forms
// ccusage accepts, and returns unix milliseconds.
func parseTimestamp(s []byte) (int64, bool) {
	if len(s) < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return 0, false
	}
	num := func(b []byte) (int, bool) {
		n := 0
		for _, c := range b {
			if c < '0' || c > '9' {
				return 0, false
			}
			n = n*10 + int(c-'0')
		}
		return n, true
	}
	y, ok1 := num(s[0:4])
	mo, ok2 := num(s[5:7])
	d, ok3 := num(s[8:10])
	h, ok4 := num(s[11:13])
	mi, ok5 := num(s[14:16])
	se, ok6 := num(s[17:19])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h > 23 || mi > 59 || se > 59 {
		return 0, false
	}
	rest := s[19:]
	ms := 0
	if len(rest) > 0 && rest[0] == '.' {
		if len(rest) < 4 {
			return 0, false
		}
		v, ok := num(rest[1:4])
		if !ok {
			return 0, false
		}
		ms = v
		rest = rest[4:]
	}
	off := 0
	switch {
	case len(rest) == 1 && rest[0] == 'Z':
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, ok1 := num(rest[1:3])
		om, ok2 := num(rest[4:6])
		if !ok1 || !ok2 || oh > 23 || om > 59 {
			return 0, false
		}
		off = (oh*60 + om) * 60
		if rest[0] == '-' {
			off = -off
		}
	default:
		return 0, false
	}
	days := daysFromCivil(y, mo, d)
	secs := days*86400 + int64(h*3600+mi*60+se) - int64(off)
	return secs*1000 + int64(ms), true
}

func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysFromCivil: days since 1970-01-01 (Howard Hinnant's algorithm).
func daysFromCivil(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era = (y - 399) / 400
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}

// parser is a small JSON reader over one line: it decodes the few fields
// the report needs and skips everything else without building values (the
// skip checks that strings end and brackets match, so a truncated line is
// rejected like a JSON decoder would).
type parser struct {
	b []byte
	i int
}

func (p *parser) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) end() bool {
	p.ws()
	return p.i == len(p.b)
}

// object reads {"k": v, ...}, calling field for each key with p positioned
// at the value; field must consume the value.
func (p *parser) object(field func(key []byte) bool) bool {
	p.ws()
	if p.i >= len(p.b) || p.b[p.i] != '{' {
		return false
	}
	p.i++
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		return true
	}
	for {
		p.ws()
		key, ok := p.str()
		if !ok {
			return false
		}
		p.ws()
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return false
		}
		p.i++
		p.ws()
		if !field(key) {
			return false
		}
		p.ws()
		if p.i >= len(p.b) {
			return false
		}
		switch p.b[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return true
		default:
			return false
		}
	}
}

// str reads a string and returns its contents (unescaped when needed).
func (p *parser) str() ([]byte, bool) {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return nil, false
	}
	start := p.i + 1
	end := scanString(p.b, start)
	if end < 0 {
		return nil, false
	}
	p.i = end + 1
	raw := p.b[start:end]
	if bytes.IndexByte(raw, '\\') < 0 {
		return raw, true
	}
	var s string
	if err := json.Unmarshal(p.b[start-1:end+1], &s); err != nil {
		return nil, false
	}
	return []byte(s), true
}

// scanString finds the closing quote of a string whose contents start at
// i (-1 when the string does not end).
func scanString(b []byte, i int) int {
	start := i
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return -1
		}
		k := i + j
		n := 0
		for m := k - 1; m >= start && b[m] == '\\'; m-- {
			n++
		}
		if n%2 == 0 {
			return k
		}
		i = k + 1
	}
}

func (p *parser) null() bool {
	if len(p.b)-p.i >= 4 && string(p.b[p.i:p.i+4]) == "null" {
		p.i += 4
		return true
	}
	return false
}

func (p *parser) strOrNull() ([]byte, bool) {
	if p.null() {
		return nil, true
	}
	s, ok := p.str()
	if ok && s == nil {
		s = []byte{}
	}
	return s, ok
}

func (p *parser) boolOrNull() (bool, bool) {
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

func numDelim(c byte) bool {
	return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// uint reads a non-negative integer (a float, a negative number or a string
// is rejected, as a u64 field is).
func (p *parser) uint() (int64, bool) {
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

func (p *parser) float() (float64, bool) {
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
func (p *parser) skip() bool {
	if p.i >= len(p.b) {
		return false
	}
	switch c := p.b[p.i]; c {
	case '"':
		end := scanString(p.b, p.i+1)
		if end < 0 {
			return false
		}
		p.i = end + 1
		return true
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

// skipContainer skips a nested object or array: strings are jumped over
// with IndexByte, brackets must match.
func (p *parser) skipContainer() bool {
	var stackBuf [64]byte
	stack := stackBuf[:0]
	b := p.b
	i := p.i
	for i < len(b) {
		switch b[i] {
		case '"':
			end := scanString(b, i+1)
			if end < 0 {
				return false
			}
			i = end + 1
			continue
		case '{':
			stack = append(stack, '}')
		case '[':
			stack = append(stack, ']')
		case '}', ']':
			if len(stack) == 0 || stack[len(stack)-1] != b[i] {
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
	return false
}
