package usage

// The line parser as it was before the single-pass lineParser (scan.go):
// a byte search for the usage marker, a second search for dropped nulls,
// then a closure-driven JSON walk. Kept as the reference the new parser is
// compared with (TestParseLineMatchesReference, FuzzParseLine).

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// refParseLine is what the old scanner did with a line: only a line holding
// the marker was parsed.
func refParseLine(line []byte, e *rawEntry) bool {
	if !bytes.Contains(line, usageMarker) {
		return false
	}
	return refParseMarked(line, e)
}

func refHasDroppedNull(line []byte) bool {
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

func refParseMarked(line []byte, e *rawEntry) bool {
	if refHasDroppedNull(line) {
		return false
	}
	*e = rawEntry{}
	p := refParser{b: line}
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

// refParser is a small JSON reader over one line: it decodes the few fields
// the report needs and skips everything else without building values (the
// skip checks that strings end and brackets match, so a truncated line is
// rejected like a JSON decoder would).
type refParser struct {
	b []byte
	i int
}

func (p *refParser) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *refParser) end() bool {
	p.ws()
	return p.i == len(p.b)
}

// object reads {"k": v, ...}, calling field for each key with p positioned
// at the value; field must consume the value.
func (p *refParser) object(field func(key []byte) bool) bool {
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
func (p *refParser) str() ([]byte, bool) {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return nil, false
	}
	start := p.i + 1
	end := refScanString(p.b, start)
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
func refScanString(b []byte, i int) int {
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

func (p *refParser) null() bool {
	if len(p.b)-p.i >= 4 && string(p.b[p.i:p.i+4]) == "null" {
		p.i += 4
		return true
	}
	return false
}

func (p *refParser) strOrNull() ([]byte, bool) {
	if p.null() {
		return nil, true
	}
	s, ok := p.str()
	if ok && s == nil {
		s = []byte{}
	}
	return s, ok
}

func (p *refParser) boolOrNull() (bool, bool) {
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
func (p *refParser) uint() (int64, bool) {
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

func (p *refParser) float() (float64, bool) {
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
func (p *refParser) skip() bool {
	if p.i >= len(p.b) {
		return false
	}
	switch c := p.b[p.i]; c {
	case '"':
		end := refScanString(p.b, p.i+1)
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
func (p *refParser) skipContainer() bool {
	var stackBuf [64]byte
	stack := stackBuf[:0]
	b := p.b
	i := p.i
	for i < len(b) {
		switch b[i] {
		case '"':
			end := refScanString(b, i+1)
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
