package hook

import (
	"errors"
	"fmt"
	"io"
	"time"
)

// MaxInput caps the payload: Claude Code's largest inputs (tool responses,
// PostToolBatch) stay well below it, and a runaway writer cannot make a hook
// allocate without bound.
const MaxInput = 10 << 20

var errTooLarge = fmt.Errorf("hook input larger than %d bytes", MaxInput)

// readInput reads stdin to EOF with a size cap and a deadline, so a stdin
// that is never closed cannot hang the hook (Claude Code closes it; a
// mis-wired caller might not).
func readInput(r io.Reader, deadline time.Duration) ([]byte, error) {
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		b, err := io.ReadAll(io.LimitReader(r, MaxInput+1))
		if err == nil && len(b) > MaxInput {
			err = errTooLarge
		}
		done <- result{b, err}
	}()
	t := time.NewTimer(deadline)
	defer t.Stop()
	select {
	case res := <-done:
		if res.err != nil {
			return nil, fmt.Errorf("read hook input: %w", res.err)
		}
		if len(res.b) == 0 {
			return nil, errors.New("empty hook input on stdin")
		}
		return res.b, nil
	case <-t.C:
		return nil, fmt.Errorf("stdin not closed within %v", deadline)
	}
}
