package e2e

import (
	"testing"

	"github.com/warden-dev/warden/internal/testenv"
)

// claudeVersion is the Claude Code release the suite is pinned to
// (testenv.ClaudeCodeVersion; make test-deps installs it).
const claudeVersion = testenv.ClaudeCodeVersion

// claudeCode is the npm package that ships the CLI, installed into
// <cache>/claude-code-<version> (testenv.CacheRoot: ~/.cache/warden-e2e).
var claudeCode = testenv.ClaudeCode

// requireClaude returns the path of the pinned claude executable, installing
// it on first use. Without node/npm or when the install fails, the test is
// skipped, or failed under CI=true.
func requireClaude(t *testing.T) string {
	t.Helper()
	return claudeCode.Require(t)
}
