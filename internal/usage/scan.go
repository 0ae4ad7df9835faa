package usage

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"strconv"
)

// parseLine extracts an entry from one transcript line. ok is false when
// ccusage would skip the line: no usage marker, a dropped null field, a
// line that does not parse or lacks a needed field.
func parseLine(line []byte, e *rawEntry) bool {
	if !hasMarker(line) {
		return false
	}
	*e = rawEntry{}
	p := lineParser{b: line}
	var f fieldsSeen
	if !p.top(e, &f) || !p.end() || p.dropped {
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

// hasMarker reports whether line holds the usage marker. It is a byte
// search for the marker's 'g', eight bytes at a time and from the end: in
// a Claude Code line the usage object comes after the message content and
// nothing after it holds a 'g', so a line with the marker is decided in a
// few words, and a line without it (a prompt, a tool result: a good part of
// the bytes) is passed over far faster than a parse would read it.
func hasMarker(line []byte) bool {
	const (
		g     = 4                  // index of 'g' in the marker
		lows  = 0x7f7f7f7f7f7f7f7f //
		gs    = 0x6767676767676767 // 'g' in every byte
		after = 4                  // marker bytes after the 'g'
	)
	// A 'g' at p can start the marker at p-g when g <= p < len(line)-after.
	end := len(line) - after
	for end-8 >= g {
		x := binary.LittleEndian.Uint64(line[end-8:]) ^ gs
		if (x-swarOnes)&^x&swarHighs == 0 { // no 'g' in the word (exact)
			end -= 8
			continue
		}
		// The high bit of each zero byte of x (a 'g' in line), exactly:
		// no borrow crosses bytes.
		m := ^(((x & lows) + lows) | x | lows)
		for m != 0 {
			top := 63 - bits.LeadingZeros64(m)
			if p := end - 8 + top>>3; string(line[p-g:p-g+len(usageMarker)]) == string(usageMarker) {
				return true
			}
			m &^= 1 << top
		}
		end -= 8
	}
	for p := end - 1; p >= g; p-- {
		if line[p] == 'g' && string(line[p-g:p-g+len(usageMarker)]) == string(usageMarker) {
			return true
		}
	}
	return false
}
