package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Object is a JSON object that remembers its key order and, as far as it
// can, its layout. Values read from a file stay the bytes they were read
// from (json.RawMessage). An object read from a file whose keys were only
// given new values is written back as its original text with just those
// values spliced in; objects warden builds, or adds keys to or removes keys
// from, are laid out anew (one member per line). So everything warden does
// not touch comes back in the same place, byte for byte, the diff shows
// only what changed, and uninstall can restore a one-line statusLine as
// the one line it was.
//
// Hand-written on purpose, not for start-up cost (install is not on the
// hook path) but because the library that edits JSON text in place,
// github.com/tidwall/sjson (v1.2.9, tried on these settings files), keeps
// replaced values in place but appends a new key as `,"key":value` straight
// after the last member — `{\n    "model": "opus"\n,"hooks":{…}}` — so a
// 4-space file does not get its "hooks" laid out in its own indent
// (TestInstallKeepsIndentAndFollowsSymlink), and deleting the key again
// drops the file's trailing newline, so install then uninstall is not
// byte-identical (TestUninstallRemovesExactlyWhatInstallAdded). Both are
// what users see in the diff and in their dotfiles.
type Object struct {
	pairs []pair
	// src is the text the object was parsed from; nil once a key was added
	// or removed (or the source had a duplicate key), when splicing values
	// into it would no longer give the right object.
	src json.RawMessage
}

// array is a JSON array warden built or rebuilt.
type array []any

type pair struct {
	key string
	val any // json.RawMessage, *Object or array
	// start, end: the span of the original value in the object's src.
	start, end int
	replaced   bool
}

// parseObject decodes raw, which must be a JSON object. A key given twice
// keeps its first position and its last value, as JavaScript's JSON.parse
// (and so Claude Code) reads it.
func parseObject(raw json.RawMessage) (*Object, error) {
	raw = bytes.TrimSpace(raw)
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("expected an object, found %s", kindOf(raw))
	}
	o := &Object{src: raw}
	dup := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, err
		}
		end := int(dec.InputOffset())
		if i := o.index(key); i >= 0 {
			o.pairs[i].val, dup = val, true
			continue
		}
		o.pairs = append(o.pairs, pair{key: key, val: val, start: end - len(val), end: end})
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, err
	}
	if dup {
		o.src = nil
	}
	return o, nil
}

// Get returns the value of key as JSON.
func (o *Object) Get(key string) (json.RawMessage, bool) {
	if i := o.index(key); i >= 0 {
		return marshalValue(o.pairs[i].val), true
	}
	return nil, false
}

// Set replaces key's value in place, or appends the key when it is new.
// val is a json.RawMessage, an *Object or an array.
func (o *Object) Set(key string, val any) {
	if i := o.index(key); i >= 0 {
		o.pairs[i].val, o.pairs[i].replaced = val, true
		return
	}
	o.pairs = append(o.pairs, pair{key: key, val: val})
	o.src = nil
}

// Delete removes key; it reports whether the key was there.
func (o *Object) Delete(key string) bool {
	i := o.index(key)
	if i < 0 {
		return false
	}
	o.pairs = append(o.pairs[:i], o.pairs[i+1:]...)
	o.src = nil
	return true
}

// Keys lists the keys in file order.
func (o *Object) Keys() []string {
	out := make([]string, len(o.pairs))
	for i, p := range o.pairs {
		out[i] = p.key
	}
	return out
}

// Len is the number of keys.
func (o *Object) Len() int { return len(o.pairs) }

func (o *Object) index(key string) int {
	for i, p := range o.pairs {
		if p.key == key {
			return i
		}
	}
	return -1
}

// marshalValue renders a value compactly (raw values as they are).
func marshalValue(v any) json.RawMessage {
	var b bytes.Buffer
	format(&b, v, 0, "")
	return b.Bytes()
}

// format writes v at nesting depth. Raw values are copied as they are:
// they sit at the same depth as in the file they came from, so their inner
// lines still line up. An object that still has its source text is that
// text with the replaced values spliced in. Anything else gets one member
// per line with indent (all on one line when indent is "").
func format(b *bytes.Buffer, v any, depth int, indent string) {
	var n int
	var open, close byte
	var member func(i int)
	switch v := v.(type) {
	case json.RawMessage:
		b.Write(v)
		return
	case *Object:
		if v.src != nil {
			v.splice(b, depth, indent)
			return
		}
		n, open, close = len(v.pairs), '{', '}'
		member = func(i int) {
			b.Write(rawJSON(v.pairs[i].key))
			b.WriteByte(':')
			if indent != "" {
				b.WriteByte(' ')
			}
			format(b, v.pairs[i].val, depth+1, indent)
		}
	case array:
		n, open, close = len(v), '[', ']'
		member = func(i int) { format(b, v[i], depth+1, indent) }
	default:
		panic(fmt.Sprintf("install: unexpected JSON value %T", v))
	}
	b.WriteByte(open)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		if indent != "" {
			b.WriteString("\n" + strings.Repeat(indent, depth+1))
		}
		member(i)
	}
	if n > 0 && indent != "" {
		b.WriteString("\n" + strings.Repeat(indent, depth))
	}
	b.WriteByte(close)
}

// splice writes the source text with each replaced value swapped in.
func (o *Object) splice(b *bytes.Buffer, depth int, indent string) {
	last := 0
	for _, p := range o.pairs { // in source order: keys were neither added nor removed
		if !p.replaced {
			continue
		}
		b.Write(o.src[last:p.start])
		format(b, p.val, depth+1, indent)
		last = p.end
	}
	b.Write(o.src[last:])
}

// rawJSON encodes v without HTML escaping: a settings file is not HTML,
// and "<" should stay "<" rather than become "\u003c".
func rawJSON(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // only strings, numbers and Objects are encoded here
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

// parseArray decodes raw, which must be a JSON array, keeping each element
// as its raw bytes.
func parseArray(raw json.RawMessage) ([]json.RawMessage, error) {
	if kindOf(raw) != "an array" {
		return nil, fmt.Errorf("expected an array, found %s", kindOf(raw))
	}
	var out []json.RawMessage
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// stringValue returns raw as a Go string when it is a JSON string.
func stringValue(raw json.RawMessage) (string, bool) {
	var s string
	if kindOf(raw) != "a string" || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// kindOf names the JSON type of raw for error messages ("an object", …).
func kindOf(raw json.RawMessage) string {
	b := bytes.TrimLeft(raw, " \t\r\n")
	if len(b) == 0 {
		return "nothing"
	}
	switch b[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}
