package install

import (
	"bytes"
	"debug/elf"
	"errors"
	"runtime"
)

// fastFrontPlatform: the front has its fast path (hooks handed to the
// keeper before the Go runtime starts, internal/hookclient/
// fast_linux_amd64.s) only here.
const fastFrontPlatform = runtime.GOOS == "linux" && runtime.GOARCH == "amd64"

// fastEntry is how the fast path's first two instructions are encoded
// (MOVQ SP, entrySP<>(SB) — RIP-relative, its 4-byte offset skipped —
// then MOVQ 0(SP), R12). A front linked without it starts at the Go
// runtime's _rt0_amd64_linux, a JMP.
var fastEntry = [...][]byte{{0x48, 0x89, 0x25}, {0x4c, 0x8b, 0x24, 0x24}}

// frontIsFast reports whether the front binary at path was linked with
// its fast path as its entry point (the Makefile, the release config and
// the test builds do; a plain `go build` or `go install` does not).
func frontIsFast(path string) (bool, error) {
	f, err := elf.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	if f.Machine != elf.EM_X86_64 {
		return false, nil
	}
	for _, p := range f.Progs {
		if p.Type != elf.PT_LOAD || p.Flags&elf.PF_X == 0 || f.Entry < p.Vaddr || f.Entry-p.Vaddr+11 > p.Filesz {
			continue
		}
		var code [11]byte
		if _, err := p.ReadAt(code[:], int64(f.Entry-p.Vaddr)); err != nil {
			return false, err
		}
		return bytes.Equal(code[:3], fastEntry[0]) && bytes.Equal(code[7:], fastEntry[1]), nil
	}
	return false, errors.New("its entry point is in no loaded segment")
}

// slowFrontNote is what install and doctor say of a front without its
// fast path.
const slowFrontNote = "was built without its fast path (a plain `go build` or `go install`): each hook then starts a Go runtime, about 1 ms more"

// slowFrontFix is how to get the fast path.
const slowFrontFix = "install with `make install` (it links the fast path), or build warden with -ldflags \"-E github.com/warden-dev/warden/internal/hookclient.entry\""
