package hook

import (
	"os"
	"strings"
)

// The warden processes these tests start use throwaway stores: no store
// keeper may outlive them (see internal/store/keeper).
func init() { os.Setenv("WARDEN_KEEPER", "off") }

// envWithout is the test's environment minus the named variables.
func envWithout(names ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		keep := true
		for _, n := range names {
			if strings.HasPrefix(kv, n+"=") {
				keep = false
			}
		}
		if keep {
			env = append(env, kv)
		}
	}
	return env
}
