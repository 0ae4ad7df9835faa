package install

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// ErrClaudeNotFound: `claude` is not on PATH.
var ErrClaudeNotFound = errors.New("claude is not on PATH")

// claudeVersionWait bounds `claude --version`. Claude Code is a Node
// program: on a loaded machine (a CI run beside builds) its start-up alone
// took over 3 s, and install then fell back to shell form.
const claudeVersionWait = 10 * time.Second

// ClaudeVersion runs `claude --version`, bounded so a broken install
// cannot hang install or doctor.
func ClaudeVersion(ctx context.Context) (string, error) {
	bin, err := exec.LookPath("claude")
	if err != nil {
		return "", ErrClaudeNotFound
	}
	ctx, cancel := context.WithTimeout(ctx, claudeVersionWait)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--version")
	cmd.WaitDelay = 500 * time.Millisecond
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("%s --version did not answer within %v", bin, claudeVersionWait)
		}
		return "", fmt.Errorf("%s --version: %w", bin, err)
	}
	return strings.TrimSpace(out.String()), nil
}
