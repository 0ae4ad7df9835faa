package testenv

import (
	"testing"
	"time"
)

// WaitFor polls cond until it holds, and fails the test when it still does
// not after within, saying what it waited for and then what each of
// explain returns (a log, a screen): a wait on a condition with a
// deadline, never a sleep that hopes.
func WaitFor(t testing.TB, within time.Duration, what string, cond func() bool, explain ...func() string) {
	t.Helper()
	for deadline := time.Now().Add(within); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			msg := "timed out after " + within.String() + " waiting for " + what
			for _, f := range explain {
				msg += "\n" + f()
			}
			t.Fatal(msg)
			return
		}
	}
}
