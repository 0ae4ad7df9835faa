package install

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/warden-dev/warden/internal/sibling"
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
		return 0, NewFSError("read", src, err)
	}
	di, err := os.Stat(dst)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return binaryCopy, nil
	case err != nil:
		return 0, NewFSError("read", dst, err)
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
		return NewFSError("read", src, err)
	}
	if err := writeAtomic(dst, data, 0o755); err != nil {
		return NewFSError("install the binary at", dst, err)
	}
	return nil
}

// sameContent compares two files chunk by chunk.
func sameContent(a, b string) (bool, error) {
	fa, err := os.Open(a)
	if err != nil {
		return false, NewFSError("read", a, err)
	}
	defer fa.Close()
	fb, err := os.Open(b)
	if err != nil {
		return false, NewFSError("read", b, err)
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
	if filepath.Base(exe) == sibling.Core {
		exe = filepath.Join(filepath.Dir(exe), sibling.Front)
	}
	return exe, nil
}

// fileCopy is one binary to copy.
type fileCopy struct{ src, dst string }

// planHelper is the copy of warden-helper from beside src to beside bin,
// nil when it is there already or not beside src: `go run ./cmd/warden
// install` has none, and warden works without it (no judges, daemon, MCP
// server or shared store).
func planHelper(src, bin string) (*fileCopy, error) {
	hs := filepath.Join(filepath.Dir(src), sibling.Helper)
	if _, err := os.Stat(hs); err != nil {
		return nil, nil
	}
	hd := filepath.Join(filepath.Dir(bin), sibling.Helper)
	act, err := planBinary(hs, hd)
	if err != nil || act != binaryCopy {
		return nil, err
	}
	return &fileCopy{hs, hd}, nil
}

// planRetired lists the binaries an earlier install put beside bin whose
// commands warden-helper runs now (sibling.Retired): an upgrade removes
// them, so nothing stale is left to run.
func planRetired(bin string) []string {
	var out []string
	for _, name := range sibling.Retired {
		p := filepath.Join(filepath.Dir(bin), name)
		if fi, err := os.Lstat(p); err == nil && !fi.IsDir() {
			out = append(out, p)
		}
	}
	return out
}
