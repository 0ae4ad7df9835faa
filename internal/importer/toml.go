package importer

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// MergeTOML adds settings to a TOML config text without disturbing what is
// there (comments, order, the user's values): a key the file already sets
// is kept and returned in kept; the others are inserted under their
// table's header, or in a new table at the end (top-level keys go before
// the first table). The result is re-parsed before it is returned.
func MergeTOML(text string, settings []Setting) (out string, added, kept []Setting, err error) {
	var existing map[string]any
	if _, err := toml.Decode(text, &existing); err != nil {
		return "", nil, nil, fmt.Errorf("the config is not valid TOML (%v); fix it first (`warden config check`)", err)
	}
	byTable := map[string][]string{}
	var tables []string
	for _, s := range settings {
		table, name := "", s.Key
		if i := strings.LastIndexByte(s.Key, '.'); i >= 0 {
			table, name = s.Key[:i], s.Key[i+1:]
		}
		if isSet(existing, s.Key) {
			kept = append(kept, s)
			continue
		}
		added = append(added, s)
		if byTable[table] == nil {
			tables = append(tables, table)
		}
		byTable[table] = append(byTable[table], name+" = "+tomlValue(s.Value))
	}
	sort.Strings(tables)
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if text == "" {
		lines = nil
	}
	for _, table := range tables {
		entries := byTable[table]
		if table == "" {
			lines = insert(lines, firstTableLine(lines), entries)
			continue
		}
		at := -1
		for i, l := range lines {
			if strings.TrimSpace(l) == "["+table+"]" {
				at = i + 1
				break
			}
		}
		if at >= 0 {
			lines = insert(lines, at, entries)
			continue
		}
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, "["+table+"]")
		lines = append(lines, entries...)
	}
	out = strings.Join(lines, "\n") + "\n"
	var check map[string]any
	if _, err := toml.Decode(out, &check); err != nil {
		return "", nil, nil, fmt.Errorf("internal: the merged config does not parse (%v); nothing was changed", err)
	}
	return out, added, kept, nil
}

// firstTableLine is where top-level keys go: before the first [table]
// header (and before the comments just above it).
func firstTableLine(lines []string) int {
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "[") {
			for i > 0 && strings.HasPrefix(strings.TrimSpace(lines[i-1]), "#") {
				i--
			}
			return i
		}
	}
	return len(lines)
}

func insert(lines []string, at int, entries []string) []string {
	out := make([]string, 0, len(lines)+len(entries))
	out = append(out, lines[:at]...)
	out = append(out, entries...)
	return append(out, lines[at:]...)
}

func isSet(m map[string]any, dotted string) bool {
	parts := strings.Split(dotted, ".")
	var cur any = m
	for _, p := range parts {
		mm, ok := cur.(map[string]any)
		if !ok {
			return false
		}
		if cur, ok = mm[p]; !ok {
			return false
		}
	}
	return true
}

// tomlValue writes a value as a TOML literal.
func tomlValue(v any) string {
	switch x := v.(type) {
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case float64:
		s := strconv.FormatFloat(x, 'f', -1, 64)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		return s
	case string:
		var b strings.Builder
		b.WriteByte('"')
		for _, r := range x {
			switch {
			case r == '"' || r == '\\':
				b.WriteByte('\\')
				b.WriteRune(r)
			case r == '\n':
				b.WriteString(`\n`)
			case r == '\t':
				b.WriteString(`\t`)
			case r < 0x20 || r == 0x7f:
				fmt.Fprintf(&b, `\u%04X`, r)
			default:
				b.WriteRune(r)
			}
		}
		b.WriteByte('"')
		return b.String()
	}
	return fmt.Sprint(v)
}
