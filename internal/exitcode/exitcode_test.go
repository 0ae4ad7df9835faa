package exitcode

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
)

// Of maps every kind of error a dispatcher sees; Report prints what is not
// silent, once, prefixed like every warden message.
func TestOfAndReport(t *testing.T) {
	notRunning := With(No, errors.New("the daemon is not running"))
	cases := []struct {
		err    error
		code   int
		stderr string
	}{
		{nil, OK, ""},
		{errors.New("boom"), Failure, "warden: boom\n"},
		{Error{Code: Failure}, Failure, ""},
		{Error{Code: No}, No, ""},
		{fmt.Errorf("task list: %w", Error{Code: 7}), 7, ""},
		{notRunning, No, "warden: the daemon is not running\n"},
		{fmt.Errorf("wrapped: %w", notRunning), No, "warden: wrapped: the daemon is not running\n"},
		{With(Usage, errors.New("bad")), Usage, "warden: bad\n"},
	}
	for _, c := range cases {
		var stderr bytes.Buffer
		if got := Report(&stderr, c.err); got != c.code || stderr.String() != c.stderr {
			t.Errorf("Report(%v) = %d, %q; want %d, %q", c.err, got, stderr.String(), c.code, c.stderr)
		}
	}
	if !errors.Is(fmt.Errorf("x: %w", notRunning), notRunning) {
		t.Error("With's error does not match itself through wrapping")
	}
}
