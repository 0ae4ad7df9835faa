package hook

import (
	"strconv"
	"time"

	"github.com/warden-dev/warden/internal/hookio"
)

// TestDeadlineEnv, for tests only, shortens every event's deadline to this
// many milliseconds from the hook's start (it never lengthens one): a
// whole-process test can then show that a pacing sleep longer than the
// deadline stops at it. Claude Code never sets it.
const TestDeadlineEnv = "WARDEN_TEST_HOOK_DEADLINE_MS"

// budget is the event's deadline from the hook's start: spec.Budget(),
// or less under TestDeadlineEnv.
func budget(spec hookio.Spec, getenv func(string) string) time.Duration {
	b := spec.Budget()
	if v := getenv(TestDeadlineEnv); v != "" {
		if ms, err := strconv.Atoi(v); err == nil && ms > 0 {
			b = min(b, time.Duration(ms)*time.Millisecond)
		}
	}
	return b
}
