package policy

import (
	"strconv"
	"strings"
)

// A short piece of a secret is not the secret: `| cut -c1-4`, `| head -c
// 6`, printf '%.4s' show a prefix to tell keys apart, as ${TOKEN:0:4}
// does in the shell (callfacts reads that one by operator). The bound is
// the shell reader's: at most 8 characters, where tokens and keys run to
// 16 and more.
const maxSecretPiece = 8

// piecer: c prints at most a short piece of each line it is given (cut -c
// or -b with bounded ranges, head or tail -c N).
func piecer(c *Cmd) bool {
	switch c.Name {
	case "cut":
		l := optJoined(c, "-c", "--characters")
		if l == "" {
			l = optJoined(c, "-b", "--bytes")
		}
		return l != "" && !c.Has("--complement") && listWidth(l) <= maxSecretPiece
	case "head", "tail":
		v := optJoined(c, "-c", "--bytes")
		n, err := strconv.Atoi(strings.TrimPrefix(v, "+"))
		return err == nil && !strings.HasPrefix(v, "+") && n >= 0 && n <= maxSecretPiece
	}
	return false
}

// listWidth is how many positions a cut list (1-4,7,9-10) selects; an
// open range (5-) or a list cutRanges cannot read counts as unbounded.
func listWidth(l string) int {
	rs, ok := cutRanges(l)
	if !ok {
		return 1 << 20
	}
	w := 0
	for _, r := range rs {
		if r[1] < 0 {
			return 1 << 20
		}
		w += r[1] - r[0] + 1
	}
	return w
}

// cutRanges reads a cut list (1-4,7,-3,9-) as [from, to] pairs, counting
// from 1; to is -1 for a range open to the end of the line. ok is false
// for anything else (a word, a range that runs backwards).
func cutRanges(l string) (rs [][2]int, ok bool) {
	for _, part := range strings.Split(l, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := 1, error(nil)
		if lo != "" {
			if a, err = strconv.Atoi(lo); err != nil {
				return nil, false
			}
		}
		b := a
		switch {
		case isRange && hi == "":
			b = -1
		case isRange:
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return nil, false
			}
		}
		rs = append(rs, [2]int{a, b})
	}
	return rs, true
}

// printfConv is one conversion of a printf format: flags, width,
// precision, verb.
var printfConv = re(`%[-+ #0]*(\d+|\*)?(\.(\d*|\*))?([a-zA-Z%])`)

// printfPieces: printf's format prints each argument cut to a short
// precision (printf '%.4s…\n' "$TOKEN"), or none at all.
func printfPieces(c *Cmd) bool {
	if c.Name != "printf" || len(c.Pos) == 0 || c.Has("-v") {
		return false
	}
	format := c.Pos[0]
	if strings.Contains(format, "$") {
		return false
	}
	for _, m := range printfConv.FindAllStringSubmatch(format, -1) {
		switch m[4] {
		case "%":
			continue
		case "s", "b", "q":
			n, err := strconv.Atoi(m[3])
			if m[2] == "" || err != nil || n > maxSecretPiece {
				return false
			}
		default:
			return false // %d of a secret is an error, %c is a piece: keep it simple
		}
	}
	return true
}

// namesOnlyUpstream: a stage before command i in its pipe cuts each
// line to the variable's name (env | cut -d= -f1 | grep -i token), or
// the lister prints names only (compgen -v).
func namesOnlyUpstream(e *Env, i int) bool {
	c := &e.F.Commands[i]
	if len(c.Upstream) > 0 && strings.ToLower(c.Upstream[0]) == "compgen" {
		return true
	}
	for k := 0; k < i; k++ {
		d := &e.F.Commands[k]
		n := len(d.Upstream)
		if n == 0 || n >= len(c.Upstream) || d.Name != c.Upstream[n] {
			continue
		}
		same := true
		for j := range d.Upstream {
			same = same && d.Upstream[j] == c.Upstream[j]
		}
		if same && reducer(d) {
			return true
		}
	}
	return false
}
