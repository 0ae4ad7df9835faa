package callfacts

import (
	"strconv"

	"mvdan.cc/sh/v3/syntax"
)

// Parameter expansions that print something other than the variable's
// text, read by operator: ${#X} is a number, ${X:0:4} a short piece of
// it. A rule that looks for $NAME in a command's words (a secret printed
// with echo) then sees what the shell would print: `echo
// "${TOKEN:0:4}****"` shows a prefix to tell keys apart, not the key.

// pieceMarker stands for a short piece of a value the line does not
// know: unknown (UnknownValue holds), but not the variable's text.
const pieceMarker = "${…}"

// maxPiece is the longest slice read as a piece rather than the value:
// tokens and keys run to 16 characters and more; 8 shown of them tell
// keys apart without giving one away.
const maxPiece = 8

// lengthAlts: ${#X} is X's length, a number.
func lengthAlts(vals []string, known bool) []string {
	if !known {
		return []string{"$((…))"}
	}
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = strconv.Itoa(len(v))
	}
	return out
}

// sliceAlts expands ${X:off} and ${X:off:len}: the slice of each known
// value, or for an unknown X a piece marker when the slice is short
// (a length of at most maxPiece, or the last few characters). nil when
// the slice is not literal or takes most of an unknown value: the
// caller then keeps $X.
func sliceAlts(s *syntax.Slice, vals []string, known bool) []string {
	off, okOff := arithLit(s.Offset)
	length, okLen, hasLen := 0, true, s.Length != nil
	if hasLen {
		length, okLen = arithLit(s.Length)
	}
	if !okOff || !okLen {
		return nil
	}
	if !known {
		if hasLen && length >= 0 && length <= maxPiece || !hasLen && off < 0 && -off <= maxPiece {
			return []string{pieceMarker}
		}
		return nil
	}
	out := make([]string, len(vals))
	for i, v := range vals {
		from := off
		if from < 0 {
			from += len(v)
		}
		from = min(max(from, 0), len(v))
		to := len(v)
		if hasLen {
			if length < 0 {
				to = len(v) + length
			} else {
				to = from + length
			}
		}
		to = min(max(to, from), len(v))
		out[i] = v[from:to]
	}
	return out
}

// arithLit reads an arithmetic operand written as a literal integer
// (4, -4, ' -4' as the parser gives it).
func arithLit(a syntax.ArithmExpr) (int, bool) {
	switch x := a.(type) {
	case *syntax.Word:
		if len(x.Parts) != 1 {
			return 0, false
		}
		l, ok := x.Parts[0].(*syntax.Lit)
		if !ok {
			return 0, false
		}
		n, err := strconv.Atoi(l.Value)
		return n, err == nil
	case *syntax.UnaryArithm:
		if x.Post || x.Op != syntax.Minus && x.Op != syntax.Plus {
			return 0, false
		}
		n, ok := arithLit(x.X)
		if x.Op == syntax.Minus {
			n = -n
		}
		return n, ok
	case *syntax.ParenArithm:
		return arithLit(x.X)
	}
	return 0, false
}
