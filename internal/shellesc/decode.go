package shellesc

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
)

// Decode is what a decoding filter prints for the input in: rev, base64
// -d (and openssl base64 -d), xxd -r, tr SET1 SET2. ok is false for any
// other command, and for input the filter would reject.
func Decode(name string, args []string, in string) (out string, ok bool) {
	switch {
	case name == "rev":
		lines := strings.Split(in, "\n")
		for i, l := range lines {
			r := []rune(l)
			for a, b := 0, len(r)-1; a < b; a, b = a+1, b-1 {
				r[a], r[b] = r[b], r[a]
			}
			lines[i] = string(r)
		}
		out = strings.Join(lines, "\n")
	case name == "base64" && hasFlag(args, "-d", "--decode", "-D"),
		name == "openssl" && hasFlag(args, "base64", "enc") && hasFlag(args, "-d"):
		s := strings.Join(strings.Fields(in), "")
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
		}
		if err != nil {
			return "", false
		}
		out = string(b)
	case name == "xxd" && hasFlag(args, "-r"):
		b, err := hex.DecodeString(strings.Join(strings.Fields(in), ""))
		if err != nil {
			return "", false
		}
		out = string(b)
	case name == "tr" && len(args) == 2 && !strings.HasPrefix(args[0], "-"):
		from, to := trSet(args[0]), trSet(args[1])
		if len(from) == 0 || len(to) == 0 {
			return "", false
		}
		out = strings.Map(func(r rune) rune {
			for i, f := range from {
				if f == r {
					return to[min(i, len(to)-1)]
				}
			}
			return r
		}, in)
	default:
		return "", false
	}
	return out, true
}

// hasFlag reports whether args hold one of flags, or a one-letter flag
// among combined short flags.
func hasFlag(args []string, flags ...string) bool {
	for _, a := range args {
		for _, f := range flags {
			if a == f || len(f) == 2 && f[0] == '-' && len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a[1:], f[1]) >= 0 {
				return true // -d, or -d among combined short flags (-di, -rp)
			}
		}
	}
	return false
}

// trSet expands tr's ranges (a-z); classes and escapes are not followed.
func trSet(s string) []rune {
	r := []rune(s)
	var out []rune
	for i := 0; i < len(r); i++ {
		if r[i] == '[' || r[i] == '\\' {
			return nil
		}
		if i+2 < len(r) && r[i+1] == '-' && r[i] <= r[i+2] && r[i+2]-r[i] < 256 {
			for c := r[i]; c <= r[i+2]; c++ {
				out = append(out, c)
			}
			i += 2
			continue
		}
		out = append(out, r[i])
	}
	return out
}
