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

// ClaudeVersion runs `claude --version`, bounded to 3 s so a broken
// install cannot hang doctor.
func ClaudeVersion(ctx context.Context) (string, error) {
	bin, err := exec.LookPath("claude")
	if err != nil {
		return "", ErrClaudeNotFound
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--version")
	cmd.WaitDelay = 500 * time.Millisecond
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("%s --version did not answer within 3 s", bin)
		}
		return "", fmt.Errorf("%s --version: %w", bin, err)
	}
	return strings.TrimSpace(out.String()), nil
}
