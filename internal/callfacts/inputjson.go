package callfacts

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// decodeInput is json.Unmarshal of a tool's input into a map, read
// directly when the input is a flat object of strings, numbers, booleans
// and nulls in ASCII (a Bash call's {"command": …, "description": …,
// "timeout": …}): encoding/json's reflection costs a tenth of reading an
// everyday command. Anything else (nested values, non-ASCII, a surrogate
// escape, a syntax error) goes to encoding/json, so the map is always the
// one it would make (TestDecodeInputAgrees).
func decodeInput(b []byte) map[string]any {
	if m, ok := flatObject(b); ok {
		return m
	}
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return m
}

// flatObject reads b as a flat JSON object; ok false when it is not one
// this reader decodes exactly as encoding/json does.
func flatObject(b []byte) (map[string]any, bool) {
	m := make(map[string]any, 4)
	ok := flatFields(string(b), func(k, str string, v any, isStr bool) {
		if isStr {
			v = str
		}
		m[k] = v
	})
	if !ok {
		return nil, false
	}
	return m, true
}

// flatString is the string value of key in b, the tool input, when b is
// a flat object flatObject reads ("" when the key is missing or its
// value is no string, as decodeInput's map gives it); ok false when b is
// not one, and only decodeInput can say. It builds no map: a shell
// call's rules read only its command (Facts.DecodeInput).
func flatString(b []byte, key string) (val string, ok bool) {
	ok = flatFields(string(b), func(k, str string, _ any, isStr bool) {
		if k == key {
			val = str // the last of repeated keys, as in the map
			if !isStr {
				val = ""
			}
		}
	})
	if !ok {
		return "", false
	}
	return val, true
}

// flatFields reads s as a flat JSON object, calling each for every member
// in order: a string value as str (isStr), any other as v. It reports
// false when s is not such an object (each may then have been called for
// some members).
func flatFields(s string, each func(k, str string, v any, isStr bool)) bool {
	i := skipSpace(s, 0)
	if i >= len(s) || s[i] != '{' {
		return false
	}
	i = skipSpace(s, i+1)
	if i < len(s) && s[i] == '}' {
		return skipSpace(s, i+1) == len(s)
	}
	for {
		if i >= len(s) || s[i] != '"' {
			return false
		}
		k, n, ok := jsonString(s, i)
		if !ok {
			return false
		}
		i = skipSpace(s, n)
		if i >= len(s) || s[i] != ':' {
			return false
		}
		i = skipSpace(s, i+1)
		if i >= len(s) {
			return false
		}
		var v any
		var str string
		isStr := false
		switch c := s[i]; {
		case c == '"':
			str, i, ok = jsonString(s, i)
			isStr = true
		case c == 't' && strings.HasPrefix(s[i:], "true"):
			v, i = true, i+4
		case c == 'f' && strings.HasPrefix(s[i:], "false"):
			v, i = false, i+5
		case c == 'n' && strings.HasPrefix(s[i:], "null"):
			v, i = nil, i+4
		case c == '-' || '0' <= c && c <= '9':
			var f float64
			f, i, ok = jsonNumber(s, i)
			v = f
		default:
			return false // an object or an array inside
		}
		if !ok {
			return false
		}
		each(k, str, v, isStr)
		i = skipSpace(s, i)
		if i >= len(s) {
			return false
		}
		switch s[i] {
		case ',':
			i = skipSpace(s, i+1)
		case '}':
			return skipSpace(s, i+1) == len(s)
		default:
			return false
		}
	}
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// jsonString reads the string whose opening quote is at s[i]: its value
// and the index after its closing quote. ok false for what this reader
// leaves to encoding/json: non-ASCII bytes, control characters, a \u
// escape of a surrogate, a bad escape.
func jsonString(s string, i int) (string, int, bool) {
	j := i + 1
	for j < len(s) && s[j] != '"' && s[j] != '\\' {
		if s[j] < 0x20 || s[j] >= utf8.RuneSelf {
			return "", 0, false
		}
		j++
	}
	if j < len(s) && s[j] == '"' {
		return s[i+1 : j], j + 1, true // no escapes: the text as written
	}
	var b strings.Builder
	b.WriteString(s[i+1 : j])
	for j < len(s) {
		c := s[j]
		switch {
		case c == '"':
			return b.String(), j + 1, true
		case c < 0x20 || c >= utf8.RuneSelf:
			return "", 0, false
		case c != '\\':
			b.WriteByte(c)
			j++
			continue
		}
		if j+1 >= len(s) {
			return "", 0, false
		}
		switch e := s[j+1]; e {
		case '"', '\\', '/':
			b.WriteByte(e)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			if j+6 > len(s) {
				return "", 0, false
			}
			r, err := strconv.ParseUint(s[j+2:j+6], 16, 32)
			if err != nil || r >= 0xD800 && r <= 0xDFFF {
				return "", 0, false // a surrogate: encoding/json pairs or replaces it
			}
			b.WriteRune(rune(r))
			j += 6
			continue
		default:
			return "", 0, false
		}
		j += 2
	}
	return "", 0, false
}

// jsonNumber reads a JSON number at s[i] as encoding/json gives it to an
// interface value: a float64.
func jsonNumber(s string, i int) (float64, int, bool) {
	j := i
	if j < len(s) && s[j] == '-' {
		j++
	}
	switch {
	case j < len(s) && s[j] == '0':
		j++
	case j < len(s) && '1' <= s[j] && s[j] <= '9':
		for j < len(s) && '0' <= s[j] && s[j] <= '9' {
			j++
		}
	default:
		return 0, 0, false
	}
	if j < len(s) && s[j] == '.' {
		j++
		d := j
		for j < len(s) && '0' <= s[j] && s[j] <= '9' {
			j++
		}
		if j == d {
			return 0, 0, false
		}
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		j++
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		d := j
		for j < len(s) && '0' <= s[j] && s[j] <= '9' {
			j++
		}
		if j == d {
			return 0, 0, false
		}
	}
	f, err := strconv.ParseFloat(s[i:j], 64)
	if err != nil {
		return 0, 0, false // out of range: encoding/json reports it
	}
	return f, j, true
}
