// Command pinnedtools installs the npm tools the suite is pinned to
// (testenv.PinnedTools: Claude Code, the other agent CLIs, ccusage) into
// the test cache, all at once, and says which it could not have.
// scripts/test-deps.sh runs it, so `make test` installs them before any
// test starts rather than inside one, under its timeout. A copy that
// already works is kept (a second run costs a `--version` each).
//
// Under CI=true a tool that cannot be had fails the command (the tests
// would fail for it anyway, later and one by one); elsewhere it prints
// why and exits 0, and the tests that need the tool skip.
package main

import (
	"fmt"
	"os"
	"sync"

	"github.com/warden-dev/warden/internal/testenv"
)

func main() {
	errs := make([]error, len(testenv.PinnedTools))
	var wg sync.WaitGroup
	// npm installs are network- and disk-bound: side by side they take as
	// long as the largest (Copilot's) rather than the sum.
	for i, tool := range testenv.PinnedTools {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = tool.Install()
		}()
	}
	wg.Wait()
	failed := 0
	for i, err := range errs {
		if err != nil {
			failed++
			tool := testenv.PinnedTools[i]
			fmt.Fprintf(os.Stderr, "test-deps: %s %s: %v\n", tool.Name, tool.Version, err)
		}
	}
	if failed == 0 {
		return
	}
	if testenv.InCI() {
		fmt.Fprintf(os.Stderr, "test-deps: %d pinned tool(s) missing; CI needs every one\n", failed)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "test-deps: the tests that need them skip (they fail under CI=true)\n")
}
