package gates

import "testing"

// BenchmarkSelfToggle: the gate on commands an agent runs all day, which
// stop at the prefilter, and on look-alikes (printf, tr, a $ next to "on")
// that reach the parser.
func BenchmarkSelfToggle(b *testing.B) {
	for _, set := range []struct {
		name string
		cmds []string
	}{
		{"everyday", []string{"git status", "ls -la", "go test ./...", "npm run build", "cat README.md",
			"git diff --stat && git log --oneline -5", "rg -n TODO src/", "make -j4 test 2>&1 | tail -20"}},
		{"parsed", []string{`printf '%s\n' "$PWD"`, "echo $HOME | tr a-z A-Z", "warden status", "$(echo Z28= | base64 -d) version"}},
	} {
		b.Run(set.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				SelfToggle(set.cmds[i%len(set.cmds)])
			}
		})
	}
}
