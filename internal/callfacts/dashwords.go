package callfacts

import "strings"

// How a command's words become options, option values and positionals,
// beyond the plain POSIX split of splitFlags:
//
//   - a global option of a CLI that takes its globals anywhere on the line
//     (tools.txt anywhere: aws --profile, kubectl -n, gcloud --project)
//     keeps its value out of the positionals wherever it stands, so
//     `aws s3 sync ./empty s3://x/ --delete --profile p` has s3://x/ as
//     its destination, not p (Args keep the value: rules reading the
//     option still see it);
//   - a single-dash word is one long option, not a cluster of letters,
//     when it is written as a word: a '-' or '_' inside
//     (-destination-path, -var-file), or four letters or more that read
//     as a word (-index, -force, -recursive, -hint: a vowel, and two or
//     no capitals) for a program warden does not know (not in tools.txt,
//     nor a POSIX tool whose clusters run long); such a word
//     never invents a dry run (-n), a -r or a -f. Real clusters (-rf,
//     -xvzf, -avzP, -fsSL, -tulpn) still split.

// longDashWord reports whether a (a single-dash word longer than two
// characters) is one long option of program name rather than a cluster.
func longDashWord(name, a string) bool {
	if len(a) < 4 || a[0] != '-' || a[1] == '-' || !asciiLetter(a[1]) {
		return false
	}
	word := a[1:]
	if i := strings.IndexByte(word, '='); i >= 0 {
		word = word[:i]
	}
	if strings.IndexByte(word, '-') > 0 || strings.IndexByte(word, '_') > 0 {
		return true // -destination-path, -var-file, -max_depth
	}
	if clusterTools[name] || IsShell(name) || toolTable()[name] != nil {
		// the programs warden knows split as they always did (cpio -idmu)
		return false
	}
	letters, vowels, upper := 0, 0, false
	for i := 0; i < len(word); i++ {
		switch b := word[i] | 0x20; {
		case word[i] >= '0' && word[i] <= '9':
			if letters == 0 {
				return false
			}
		case b < 'a' || b > 'z':
			return false
		default:
			letters++
			upper = upper || word[i] < 'a'
			switch b {
			case 'a', 'e', 'i', 'o', 'u', 'y':
				vowels++
			}
		}
	}
	if letters >= 4 && (vowels >= 2 || vowels == 1 && !upper) {
		// -index, -force, -delete, -Recurse, -path, -hint: a word; the
		// clusters of unknown programs have capitals or no vowel
		// (-avzP, -fsSL, -xzvf)
		return true
	}
	return false
}

func asciiLetter(b byte) bool { b |= 0x20; return b >= 'a' && b <= 'z' }

// clusterTools are programs whose letter clusters run long and may read
// as words (rsync -avze, tar -cvzf, ls -lahtr, ps -aux): their
// single-dash words are always clusters.
var clusterTools = map[string]bool{"rsync": true, "tar": true, "bsdtar": true, "gtar": true, "ls": true, "ps": true,
	"netstat": true, "ss": true, "lsof": true, "uname": true, "cp": true, "rm": true, "mv": true, "ln": true,
	"chmod": true, "chown": true, "grep": true, "egrep": true, "du": true, "df": true, "zip": true, "unzip": true,
	"curl": true, "wget": true, "ssh": true, "scp": true, "sort": true, "set": true, "shopt": true, "rpm": true,
	"pacman": true, "xargs": true, "sed": true, "cut": true, "uniq": true, "wc": true, "diff": true, "patch": true}

// anywhereValue reports whether a is a global option of s, given apart
// from its value, that takes the next word as its value wherever it
// stands (tools.txt anywhere); joined reports a short global with its
// value joined (-nprod).
func anywhereValue(s *toolSpec, a string) (next, joined bool) {
	if s.anywhere == nil || len(a) < 2 || a[0] != '-' {
		return false, false
	}
	if s.anywhere[a] {
		return true, false
	}
	return false, len(a) > 2 && a[1] != '-' && s.anywhere[a[:2]]
}

// ClusterValue reads a cluster of short options (-sku, -qO-, -XPOST,
// -H'X: y'): the first letter that takes a value (takes("-u")) ends the
// cluster; the rest of the word is its value, or, at the end of the
// word, the next word is (next). opt is "" when no letter takes one.
func ClusterValue(a string, takes func(opt string) bool) (opt, val string, next bool) {
	if len(a) < 2 || a[0] != '-' || a[1] == '-' {
		return "", "", false
	}
	for i := 1; i < len(a); i++ {
		if o := dashFlag(rune(a[i])); takes(o) {
			return o, a[i+1:], i+1 == len(a)
		}
	}
	return "", "", false
}

// takesValue reports whether o is one of s's options that take a value
// (tools.txt values=).
func (s *toolSpec) takesValue(o string) bool { return s.values[o] }

// OptionValue reports whether c.Args[i] is the value of the option
// before it (tools.txt values= and anywhere globals, given apart or at
// the end of a cluster: rsync -e "ssh -i KEY", scp -o X=Y), not an
// argument of its own.
func (c *Cmd) OptionValue(i int) bool {
	if i <= 0 || i >= len(c.Args) {
		return false
	}
	s, a := c.tool(), c.Args[i-1]
	if len(a) < 2 || a[0] != '-' || a == "--" || c.OptionValue(i-1) {
		return false
	}
	if next, _ := anywhereValue(s, a); next || s.values[a] {
		return true
	}
	if s.values == nil || a[1] == '-' {
		return false
	}
	_, _, next := ClusterValue(a, s.takesValue)
	return next
}
