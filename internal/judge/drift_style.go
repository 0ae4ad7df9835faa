package judge

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode"
)

// Style drift, the deterministic part: which changed lines of an edit
// differ from a removed line only in formatting — whitespace, quote style,
// trailing commas or semicolons, blank lines, or lines re-wrapped. Lines
// are diffed (longest common subsequence, after trimming the common head
// and tail); a removed and an added line that normalize to the same text
// are a re-formatted pair. In whitespace-significant files (Python, YAML,
// Makefiles…) indentation is never formatting.

// StyleStats is an edit's formatting analysis.
type StyleStats struct {
	// Changed counts removed plus added lines; Formatting those of them
	// that differ only in formatting.
	Changed, Formatting int
}

// Thresholds. An edit is mostly formatting when at least 60% of its
// changed lines are, and at least two lines were re-formatted (a pair
// counts 2). It is overwhelmingly formatting when nothing else changed and
// at least 6 lines were re-formatted: then no judge is needed.
const (
	styleMostlyPct      = 60
	styleMinLines       = 4
	styleOverwhelmLines = 12
)

// Mostly: the edit is mostly formatting (a judge decides whether it drifts).
func (s StyleStats) Mostly() bool {
	return s.Formatting >= styleMinLines && s.Formatting*100 >= s.Changed*styleMostlyPct
}

// Overwhelming: the edit changes formatting and nothing else, on many lines.
func (s StyleStats) Overwhelming() bool {
	return s.Formatting == s.Changed && s.Formatting >= styleOverwhelmLines
}

// String says it in a sentence for a denial or a prompt.
func (s StyleStats) String() string {
	return fmt.Sprintf("%d of its %d changed lines differ only in formatting (whitespace, quotes, trailing commas or semicolons, blank lines, line wrapping)",
		s.Formatting, s.Changed)
}

// wsSignificant are file types whose indentation is syntax.
var wsSignificant = map[string]bool{".py": true, ".pyi": true, ".yaml": true, ".yml": true, ".mk": true,
	".haml": true, ".pug": true, ".sass": true, ".coffee": true, ".nim": true, ".fs": true, ".elm": true}

// IndentSignificant reports whether indentation is syntax in path's language.
func IndentSignificant(path string) bool {
	base := filepath.Base(path)
	return wsSignificant[strings.ToLower(filepath.Ext(base))] || base == "Makefile" || base == "makefile" || base == "GNUmakefile"
}

// StyleDiff analyses an edit's replacements.
func StyleDiff(pairs []EditPair, keepIndent bool) StyleStats {
	var s StyleStats
	for _, p := range pairs {
		removed, added := diffLines(splitLines(p.Old), splitLines(p.New))
		s.Changed += len(removed) + len(added)
		s.Formatting += formattingLines(removed, added, keepIndent)
	}
	return s
}

// formattingLines counts the changed lines that are formatting.
func formattingLines(removed, added []string, keepIndent bool) int {
	if len(removed)+len(added) == 0 {
		return 0
	}
	// Re-wrapped (one long line split in three, or joined): the same text.
	if !keepIndent && normJoin(removed) == normJoin(added) {
		return len(removed) + len(added)
	}
	n := 0
	left := map[string]int{}
	for _, r := range removed {
		if k := normLine(r, keepIndent); k == "" {
			n++ // a dropped blank line
		} else {
			left[k]++
		}
	}
	for _, a := range added {
		k := normLine(a, keepIndent)
		switch {
		case k == "":
			n++ // an added blank line
		case left[k] > 0:
			left[k]--
			n += 2 // the removed line and this one
		}
	}
	return n
}

// normLine is a line with formatting removed: no whitespace (but the
// indentation when it is syntax), one quote character, no trailing comma or
// semicolon, no comma before a closing bracket.
func normLine(line string, keepIndent bool) string {
	if strings.TrimSpace(line) == "" {
		return ""
	}
	indent := ""
	if keepIndent {
		indent = line[:len(line)-len(strings.TrimLeft(line, " \t"))]
	}
	return indent + dropCommaBeforeClose(strings.TrimRight(squash(line), ";,"))
}

// normJoin is lines joined as one: re-wrapping moves commas to line ends,
// so only semicolons are dropped per line.
func normJoin(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(strings.TrimRight(squash(l), ";"))
	}
	return strings.TrimRight(dropCommaBeforeClose(b.String()), ",")
}

// squash drops whitespace and maps ' and ` to ".
func squash(line string) string {
	var b strings.Builder
	for _, r := range line {
		switch {
		case unicode.IsSpace(r):
		case r == '\'' || r == '`':
			b.WriteByte('"')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func dropCommaBeforeClose(s string) string {
	for _, cl := range []string{")", "]", "}"} {
		s = strings.ReplaceAll(s, ","+cl, cl)
	}
	return s
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// maxDiffCells bounds the LCS table; past it, lines are compared as
// multisets (moves then do not count as changes, which is fine here).
const maxDiffCells = 1 << 20

// diffLines returns the lines of a that are not in b (removed) and of b
// not in a (added), by longest common subsequence.
func diffLines(a, b []string) (removed, added []string) {
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		a, b = a[1:], b[1:]
	}
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	if len(a) == 0 || len(b) == 0 {
		return a, b
	}
	if len(a)*len(b) > maxDiffCells {
		return multisetDiff(a, b)
	}
	// lcs[i][j] is the LCS length of a[i:] and b[j:].
	w := len(b) + 1
	lcs := make([]int32, (len(a)+1)*w)
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			i, j = i+1, j+1
		case lcs[(i+1)*w+j] >= lcs[i*w+j+1]:
			removed = append(removed, a[i])
			i++
		default:
			added = append(added, b[j])
			j++
		}
	}
	return append(removed, a[i:]...), append(added, b[j:]...)
}

func multisetDiff(a, b []string) (removed, added []string) {
	count := map[string]int{}
	for _, l := range b {
		count[l]++
	}
	for _, l := range a {
		if count[l] > 0 {
			count[l]--
		} else {
			removed = append(removed, l)
		}
	}
	left := map[string]int{}
	for _, l := range a {
		left[l]++
	}
	for _, l := range b {
		if left[l] > 0 {
			left[l]--
		} else {
			added = append(added, l)
		}
	}
	return removed, added
}
