package testenv

import (
	"os"
	"strings"
)

// EnvWithout is the test's environment without the variables named; a
// name ending in "_" (WARDEN_) drops every variable that starts with it.
// A child started with it sees only what the test then adds.
func EnvWithout(names ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if !dropped(name, names) {
			env = append(env, kv)
		}
	}
	return env
}

func dropped(name string, names []string) bool {
	for _, n := range names {
		if name == n || strings.HasSuffix(n, "_") && strings.HasPrefix(name, n) {
			return true
		}
	}
	return false
}
