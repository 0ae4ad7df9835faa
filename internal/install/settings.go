package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Settings is one Claude Code settings file, read and ready to edit.
type Settings struct {
	// Path is the file as the user knows it (what messages name).
	Path string
	// Exists is false for a file that is not there yet (Root is empty).
	Exists bool
	// Mode is the file's permission bits, kept when it is rewritten.
	Mode fs.FileMode
	// Raw is the content as read.
	Raw []byte
	// Root is the top-level object.
	Root *Object

	indent          string // the file's own indent unit, reused on write
	trailingNewline bool
}

// ParseError says where a settings file stops being valid and what to do;
// the file is never written when one is returned.
type ParseError struct {
	Path      string
	Line, Col int // 1-based; 0 when the problem is not at one position
	Msg       string
}

func (e *ParseError) Error() string {
	return e.Where() + ": " + e.Msg + "; " + e.Fix()
}

// Where is "file:line:col" (or just the file).
func (e *ParseError) Where() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d", e.Path, e.Line, e.Col)
	}
	return e.Path
}

// Fix is the one thing to do about it.
func (e *ParseError) Fix() string {
	return "fix the file by hand (or restore a " + filepath.Base(e.Path) +
		".warden-backup-* copy) and run the command again; warden does not rewrite a file it cannot read"
}

// ReadSettings reads and parses a settings file. A file that does not exist
// is an empty one; a whitespace-only file too. Anything else that is not a
// JSON object is a *ParseError.
func ReadSettings(path string) (*Settings, error) {
	s := &Settings{Path: path, Mode: 0o644, Root: &Object{}, indent: "  ", trailingNewline: true}
	raw, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return s, nil
	case err != nil:
		return nil, NewFSError("read", path, err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, NewFSError("read", path, err)
	}
	s.Exists, s.Mode, s.Raw = true, fi.Mode().Perm(), raw
	if len(bytes.TrimSpace(raw)) == 0 {
		return s, nil
	}
	var probe any
	if err := json.Unmarshal(raw, &probe); err != nil {
		return nil, parseError(path, raw, err)
	}
	if _, ok := probe.(map[string]any); !ok {
		return nil, &ParseError{Path: path, Msg: "the top level is " + kindOf(raw) + ", not a JSON object"}
	}
	if s.Root, err = parseObject(raw); err != nil {
		return nil, &ParseError{Path: path, Msg: err.Error()}
	}
	s.indent = detectIndent(raw)
	s.trailingNewline = bytes.HasSuffix(raw, []byte("\n"))
	return s, nil
}

// parseError turns a decoding error into file:line:col.
func parseError(path string, raw []byte, err error) error {
	var off int64 = -1
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
	case errors.As(err, &typ):
		off = typ.Offset
	}
	pe := &ParseError{Path: path, Msg: "invalid JSON: " + strings.TrimPrefix(err.Error(), "json: ")}
	if off >= 0 {
		pe.Line, pe.Col = position(raw, int(off))
	}
	return pe
}

// position converts the decoder's offset (bytes read when it gave up, so
// the offending byte is the last one read) to a 1-based line and column.
func position(raw []byte, off int) (line, col int) {
	if off > len(raw) {
		off = len(raw)
	}
	at := off - 1 // the offending byte
	if at < 0 {
		at = 0
	}
	before := raw[:at]
	line = 1 + bytes.Count(before, []byte("\n"))
	col = at - bytes.LastIndexByte(before, '\n')
	return line, col
}

// detectIndent finds the indent unit of the first indented line, so a file
// indented with tabs or four spaces stays that way; two spaces otherwise
// (what Claude Code itself writes).
func detectIndent(raw []byte) string {
	for _, line := range bytes.Split(raw, []byte("\n"))[1:] {
		trimmed := bytes.TrimLeft(line, " \t")
		if len(trimmed) == len(line) || len(trimmed) == 0 {
			continue
		}
		return string(line[:len(line)-len(trimmed)])
	}
	return "  "
}

// Encode renders Root as the file's new content.
func (s *Settings) Encode() []byte {
	var b bytes.Buffer
	format(&b, s.Root, 0, s.indent)
	if s.trailingNewline {
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// objectAt returns the object under key, an empty one when the key is
// absent, or an error naming the key when it holds something else.
func (s *Settings) ObjectAt(parent *Object, key, where string) (*Object, error) {
	raw, ok := parent.Get(key)
	if !ok {
		return &Object{}, nil
	}
	if kindOf(raw) != "an object" {
		return nil, s.shapeError(where, "an object", raw)
	}
	return parseObject(raw)
}

// shapeError refuses a file whose structure warden would have to guess at.
func (s *Settings) shapeError(where, want string, raw json.RawMessage) error {
	return &ParseError{Path: s.Path, Msg: fmt.Sprintf("%q is %s, expected %s", where, kindOf(raw), want)}
}
