// Package flagval holds command-line flag values shared by warden-core's
// command tree (internal/cli) and warden-helper's (internal/helper/cmds),
// which are separate binaries and so cannot share one package's private
// types.
package flagval

import (
	"errors"
	"strings"
	"time"
)

// Time is an RFC 3339 time flag (pflag.Value) that knows whether it was
// given. Unset is what help shows as its default ("" shows none).
type Time struct {
	T     time.Time
	Given bool
	Unset string
}

func (f *Time) String() string {
	if !f.Given {
		return f.Unset
	}
	return f.T.Format(time.RFC3339)
}

// Type names the value in help.
func (f *Time) Type() string { return "time" }

// Set parses an RFC 3339 time; pflag reports its error as
// `invalid argument "X" for "--flag" flag: <error>`, so the error says how
// to write one.
func (f *Time) Set(s string) error {
	t, err := ParseRFC3339(s)
	if err != nil {
		return err
	}
	f.T, f.Given = t, true
	return nil
}

// ParseRFC3339 parses an RFC 3339 time (fractions allowed) into UTC.
func ParseRFC3339(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(s))
	if err != nil {
		return time.Time{}, errors.New("not an RFC 3339 time; write it like 2025-11-06T14:30:00Z or 2025-11-06T15:30:00+01:00")
	}
	return t.UTC(), nil
}
