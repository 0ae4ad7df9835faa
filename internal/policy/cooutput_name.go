package policy

import (
	"path"
	"strings"
)

// A clean-up line deletes a build's output together: `rm -rf dist
// web-ext-artifacts`, `rm -rf bin/ cover.out testbin/`. A name nobody listed is read as that
// output too when it is compound and its last word says what it holds is
// made (artifacts, output, cache, reports, bin) and the same line
// deletes a name known as output (dist, coverage, cover.out). A plain
// word (src, lib, data, bin, models) stays the project's, alone or not:
// only a qualified noun (web-ext-artifacts, testbin) reads as a tool's.

// outputNouns end the names of what tools make and fill.
var outputNouns = map[string]bool{"artifacts": true, "artifact": true, "output": true, "outputs": true, "out": true, "cache": true,
	"caches": true, "reports": true, "report": true, "results": true, "bin": true, "bins": true, "build": true, "builds": true,
	"dist": true, "logs": true, "tmp": true}

// coDeletedOutput: rel is a compound name ending in an output noun, and
// another top-level name the line deletes is known output.
func coDeletedOutput(rel string, deleted []string) bool {
	if !outputNounName(rel) {
		return false
	}
	for _, o := range deleted {
		if o != rel && knownOutputName(o) {
			return true
		}
	}
	return false
}

// outputNounName: a name of two or more words whose last is an output
// noun (web-ext-artifacts, test_reports, e2e-output); one word joined
// to a scratch word counts as two (testbin, tmpout).
func outputNounName(rel string) bool {
	words := strings.FieldsFunc(strings.ToLower(rel), func(r rune) bool { return r == '-' || r == '_' || r == '.' })
	if len(words) == 1 {
		for w := range scratchRunWords {
			if rest, ok := strings.CutPrefix(words[0], w); ok && outputNouns[rest] {
				return true
			}
		}
		return false
	}
	return len(words) > 1 && outputNouns[strings.TrimRight(words[len(words)-1], "0123456789")]
}

// knownOutputName: a top-level name read as build output or scratch
// space, or a file a build or test run writes (cover.out, *.log).
func knownOutputName(o string) bool {
	if strings.HasPrefix(o, "*") {
		return false
	}
	l := strings.ToLower(o)
	if buildOutputName(o) || buildDirs[l] || generatedNames[l] {
		return true
	}
	if !strings.Contains(l, ".") && scratchName(o) && !strings.HasPrefix(o, ".") {
		return true
	}
	ext := path.Ext(l)
	return ext != "" && (generatedExts[ext] || ext == ".out")
}
