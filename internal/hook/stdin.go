package hook

import (
	"errors"
	"fmt"
	"io"
	"os"
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
	if d, ok := r.(deadliner); ok {
		if b, err, done := readFileInput(r, d, deadline); done {
			return b, err
		}
	}
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		b, err := readAllCapped(r)
		done <- result{b, err}
	}()
	t := time.NewTimer(deadline)
	defer t.Stop()
	select {
	case res := <-done:
		if err := checked(res.b, res.err); err != nil {
			return nil, err
		}
		return res.b, nil
	case <-t.C:
		return nil, fmt.Errorf("stdin not closed within %v", deadline)
	}
}

// deadliner is a stdin whose reads can be bounded: an os.File, or the
// resident server's wrapper of a caller's socket (internal/hookserve).
type deadliner interface {
	SetReadDeadline(time.Time) error
}

// readFileInput reads a stdin that needs no goroutine to be bounded: a
// pollable pipe or socket (the resident server's callers: it made theirs
// non-blocking, or reads them without waiting) under a read deadline, or
// a regular file, which cannot block. done is false for anything else (a
// terminal, a blocking pipe in a hook's own process): readInput then
// reads it in a goroutine.
func readFileInput(r io.Reader, d deadliner, deadline time.Duration) (b []byte, err error, done bool) {
	if d.SetReadDeadline(time.Now().Add(deadline)) == nil {
		defer d.SetReadDeadline(time.Time{})
		b, err = readAllCapped(r)
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return nil, fmt.Errorf("stdin not closed within %v", deadline), true
		}
		if err = checked(b, err); err != nil {
			return nil, err, true
		}
		return b, nil, true
	}
	if f, ok := r.(*os.File); !ok {
		return nil, nil, false
	} else if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		b, err = readAllCapped(f)
		if err = checked(b, err); err != nil {
			return nil, err, true
		}
		return b, nil, true
	}
	return nil, nil, false
}

func readAllCapped(r io.Reader) ([]byte, error) {
	b, err := readAll(io.LimitReader(r, MaxInput+1), inputBuf)
	if err == nil && len(b) > MaxInput {
		err = errTooLarge
	}
	return b, err
}

// inputBuf is the first buffer a payload is read into: a tool call's
// payload is a few KB, which io.ReadAll (512 bytes first) reads in four
// or five growing buffers.
const inputBuf = 4 << 10

// readAll is io.ReadAll starting with size bytes of room.
func readAll(r io.Reader, size int) ([]byte, error) {
	b := make([]byte, 0, size)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // let append pick the next size
		}
	}
}

// checked turns a read's outcome into readInput's errors.
func checked(b []byte, err error) error {
	if err != nil {
		return fmt.Errorf("read hook input: %w", err)
	}
	if len(b) == 0 {
		return errors.New("empty hook input on stdin")
	}
	return nil
}
