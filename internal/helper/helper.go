// Package helper finds and runs warden-helper, the binary that carries
// what the hook process must not link: the daemon's HTTP servers, TLS and
// Prometheus (`serve`, `task`), the MCP SDK (`mcp`), the LLM SDK
// (`judge`), PostgreSQL (`ship`, `store check`, `audit verify --shared`),
// the network stack for OAuth usage polling and image encoding (`pace
// poll`, `pace simulate`). Every package linked into warden-core runs its
// init on every hook the keeper does not answer, so these commands live
// there and warden hands them over. Users still type only `warden …`.
package helper

import (
	"errors"
	"fmt"
	"io"
	"os/exec"

	"github.com/warden-dev/warden/internal/sibling"
)

// Path finds warden-helper: beside the running binary first (that is
// where `warden install` puts it), then on PATH.
func Path() (string, error) { return sibling.Find(sibling.Helper) }

// Run runs `warden-helper args…` with the given stdio and returns its
// exit code.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	p, err := Path()
	if err != nil {
		return 1, err
	}
	cmd := exec.Command(p, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	err = cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), nil
	}
	if err != nil {
		return 1, fmt.Errorf("run %s: %w", p, err)
	}
	return 0, nil
}
