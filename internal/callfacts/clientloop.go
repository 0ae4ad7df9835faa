package callfacts

import "github.com/warden-dev/warden/internal/lazyre"

// s21 disguise: what a loop takes from a remote client is the service's
// too: for co in c.get_account(1).get_courses(…): co.update(…) changes
// each course on the server c was made for, as c.update(…) would, and
// [v.delete() for v in gis.content.search(…)] deletes each item.

// loopOver: a loop variable and the first name of what it iterates
// (Python for/comprehension, JavaScript for…of, Ruby .each do |x|).
var loopOver = lazyre.New(`\bfor\s+(?:const\s+|let\s+|var\s+)?(\w+)\s+(?:in|of)\s+(\w+)\b|\b(\w+)(?:\.\w+(?:\([^()]*\))?)*\.each\s*(?:do\s*|\{\s*)\|\s*(\w+)\s*\|`)

// withLoopClients adds to the client bindings (name at index 1) the loop
// variables that iterate over one of them.
func withLoopClients(code string, bound [][]string) [][]string {
	if len(bound) == 0 {
		return bound
	}
	names := map[string]bool{}
	for _, m := range bound {
		names[m[1]] = true
	}
	out := bound
	for _, m := range loopOver.FindAllStringSubmatch(code, 8) {
		v, of := m[1], m[2]
		if v == "" {
			v, of = m[4], m[3]
		}
		if names[of] && !names[v] {
			names[v] = true
			out = append(out, []string{"", v})
		}
	}
	return out
}
