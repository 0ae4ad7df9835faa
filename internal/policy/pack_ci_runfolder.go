package policy

import "strings"

// A CI run's own folder in a store named for tests or scratch
// (s3://acme-ediscovery-dev-scratch/ci-runs/run-8812/): the run id names
// the leaf, a dev or test word the bucket or a folder above it. Like a
// resource named test-pr-42, it is made by one run and removed by the
// next; a prod word anywhere on the path still keeps it.

// ephemeralUnder: leaf (the last part of target) carries a run id and
// target's other parts a test word, with no production word anywhere.
func ephemeralUnder(target, leaf string) bool {
	if !strings.Contains(target, "/") || !runID(leaf) {
		return false
	}
	full := runTargetDots.Replace(target)
	// a dev or test word, not scratch or tmp alone: a run's folder in a
	// team's shared scratch bucket (gs://acme-ml-scratch/tmp/run-42) may
	// be someone's only copy of results
	return ephemeralName(full) && (testName(full) || devWordIn(full))
}

// runID: name has a part of pr, run, build or job followed by digits, or
// a part of three or more digits after such a word (run-8812, pr-42,
// build_1234).
func runID(name string) bool {
	ws := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '-' || r == '_' || r == '.' })
	for i, w := range ws {
		for _, p := range []string{"pr", "run", "build", "job", "pipeline"} {
			if rest, ok := strings.CutPrefix(w, p); ok && rest != "" && strings.Trim(rest, "0123456789") == "" {
				return true
			}
			if w == p && i+1 < len(ws) && len(ws[i+1]) >= 2 && strings.Trim(ws[i+1], "0123456789") == "" {
				return true
			}
		}
	}
	return false
}

// runTargetDots is built once: a Replacer builds its tables on first use.
var runTargetDots = strings.NewReplacer("/", ".", ":", ".")
