// Package e2e is warden's end-to-end suite: it runs the real Claude Code CLI
// (a pinned version installed from npm into a cache directory) in print mode
// against a scripted fake Anthropic Messages API served from the test
// process, with warden installed by its own installer into a throw-away HOME,
// and then checks what warden recorded in its store, what Claude Code sent
// back to the model, and what it printed.
//
// Everything lives in _test.go files:
//
//   - claude_test.go   pins the Claude Code CLI (internal/testenv installs it)
//   - fakeapi_test.go  the fake Messages API (SSE and JSON) and its request log
//   - scenario_test.go the scenario runner (temp HOME, env, install, run, store)
//   - basic_test.go    the scenarios (a table; new features add rows)
//
// Environment:
//
//   - WARDEN_E2E_CACHE  where Claude Code is installed (default
//     $XDG_CACHE_HOME/warden-e2e, else ~/.cache/warden-e2e)
//   - CI=true           a missing node/npm or a failed install fails the
//     suite instead of skipping it
//   - WARDEN_E2E_KEEP=1 keep each run's directory and log where it is
//
// `go test -short` skips the suite.
package e2e
