package gates

import (
	"encoding/json"
	"testing"

	"github.com/warden-dev/warden/internal/event"
)

// BenchmarkMutation: the question verify asks after every Bash call and
// safemode before one, on everyday commands and on wrapped changes.
func BenchmarkMutation(b *testing.B) {
	for _, set := range []struct {
		name string
		cmds []string
	}{
		{"everyday", []string{"git status", "ls -la", "go test ./...", "npm run build", "cat README.md",
			"git diff --stat && git log --oneline -5", "rg -n TODO src/", "make -j4 test 2>&1 | tail -20"}},
		{"wrapped", []string{"setsid rm -rf x", "flock /tmp/l rm -rf x", "script -c 'rm -rf x'", "busybox rm -rf x",
			"chroot / rm -rf x", "unshare -r rm -rf x", "echo 'rm -rf x' | sh", "sudo -u root mv a b"}},
	} {
		ins := make([]*event.Input, len(set.cmds))
		for i, c := range set.cmds {
			raw, _ := json.Marshal(map[string]string{"command": c})
			ins[i] = &event.Input{ToolName: "Bash", ToolInput: raw, Cwd: "/home/dev/proj"}
		}
		b.Run(set.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				Mutation(ins[i%len(ins)])
			}
		})
	}
}
