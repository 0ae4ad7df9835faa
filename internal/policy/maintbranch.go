package policy

import "strings"

// maintenanceBranch: a branch a project maintains a release line on,
// named with stable or lts as one of its words, in any case and joined
// any way (MOODLE_403_STABLE, stable/zed, 4.2-stable, node-v18-lts,
// lts/2024, OpenSSL_1_1_1-stable): rewritten, it is main rewritten for
// everyone who ships from it. A branch under a personal or topic prefix
// (fix/stable-sort, feature/lts-banner) is its author's, and a word that
// only contains stable (unstable, stabilize) is not one.
func maintenanceBranch(b string) bool {
	words := strings.FieldsFunc(strings.ToLower(b), func(r rune) bool { return r == '/' || r == '-' || r == '_' || r == '.' })
	if len(words) == 0 || strings.Contains(b, "/") && topicPrefixes[words[0]] {
		return false
	}
	for _, w := range words {
		if w == "stable" || w == "lts" {
			return true
		}
	}
	return false
}

// topicPrefixes start the names of branches one author works on.
var topicPrefixes = map[string]bool{"feature": true, "feat": true, "fix": true, "bugfix": true, "bug": true, "wip": true, "topic": true,
	"chore": true, "docs": true, "doc": true, "test": true, "tests": true, "spike": true, "experiment": true, "exp": true, "user": true,
	"users": true, "dev": true, "tmp": true, "refactor": true, "try": true, "draft": true, "personal": true, "backup": true}
