package install

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/warden-dev/warden/internal/hookclient"
)

// binaryAction is what installing the binary would do.
type binaryAction int

const (
	binarySame    binaryAction = iota // dst already is src, or has the same bytes
	binaryCopy                        // dst is missing or different
	binaryInPlace                     // src is dst: warden runs from the installed path
)

// planBinary decides whether src must be copied to dst. Settings files
// name dst, a path that does not move when the source tree or a download
// directory does.
func planBinary(src, dst string) (binaryAction, error) {
	si, err := os.Stat(src)
	if err != nil {
		return 0, fsError("read", src, err)
	}
	di, err := os.Stat(dst)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return binaryCopy, nil
	case err != nil:
		return 0, fsError("read", dst, err)
	case os.SameFile(si, di):
		return binaryInPlace, nil
	case si.Size() != di.Size() || di.Mode().Perm()&0o111 == 0:
		return binaryCopy, nil
	}
	same, err := sameContent(src, dst)
	if err != nil {
		return 0, err
	}
	if same {
		return binarySame, nil
	}
	return binaryCopy, nil
}

// copyBinary installs src at dst atomically (mode 0755), so a hook starting
// at that moment runs the old binary or the new one, never a torn file.
func copyBinary(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return fsError("read", src, err)
	}
	if err := writeAtomic(dst, data, 0o755); err != nil {
		return fsError("install the binary at", dst, err)
	}
	return nil
}

// sameContent compares two files chunk by chunk.
func sameContent(a, b string) (bool, error) {
	fa, err := os.Open(a)
	if err != nil {
		return false, fsError("read", a, err)
	}
	defer fa.Close()
	fb, err := os.Open(b)
	if err != nil {
		return false, fsError("read", b, err)
	}
	defer fb.Close()
	ba, bb := make([]byte, 64<<10), make([]byte, 64<<10)
	for {
		na, ea := io.ReadFull(fa, ba)
		nb, eb := io.ReadFull(fb, bb)
		if na != nb || !bytes.Equal(ba[:na], bb[:nb]) {
			return false, nil
		}
		if ea != nil || eb != nil { // EOF or short read on both at the same point
			return errors.Is(ea, io.EOF) || errors.Is(ea, io.ErrUnexpectedEOF), nil
		}
	}
}

// sourceBinary is the warden to install: the one beside the running
// executable (warden-core, which `warden install` runs in), symlinks
// resolved.
func sourceBinary() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	if filepath.Base(exe) == hookclient.CoreName {
		exe = filepath.Join(filepath.Dir(exe), "warden")
	}
	return exe, nil
}

// Helpers are binaries that ship beside warden and are installed with it
// when present next to the source binary: warden-judge carries the LLM
// SDK, which the hook binary must not link (its init would run on every
// event).
var Helpers = []string{"warden-helper", "warden-judge", "warden-serve"}

type helperCopy struct{ src, dst string }

// planHelpers lists the helper binaries next to src that need copying next
// to bin. A helper that is not there is skipped: `go run ./cmd/warden
// install` has none, and warden works without it (judges off).
func planHelpers(src, bin string) ([]helperCopy, error) {
	var out []helperCopy
	for _, name := range Helpers {
		hs := filepath.Join(filepath.Dir(src), name)
		if _, err := os.Stat(hs); err != nil {
			continue
		}
		hd := filepath.Join(filepath.Dir(bin), name)
		act, err := planBinary(hs, hd)
		if err != nil {
			return nil, err
		}
		if act == binaryCopy {
			out = append(out, helperCopy{hs, hd})
		}
	}
	return out, nil
}
