package install

import (
	"debug/elf"
	"errors"
	"runtime"
)

// fastFrontPlatform: the front has its fast path (hooks handed to the
// keeper before the Go runtime starts, internal/hookclient/
// fast_linux_<arch>.s) only here.
const fastFrontPlatform = runtime.GOOS == "linux" && (runtime.GOARCH == "amd64" || runtime.GOARCH == "arm64")

// fastEntry is how the fast path's first instructions are encoded, per
// machine: the bytes at the entry point, with nil for bytes that vary (an
// address). A front linked without it starts at the Go runtime's
// _rt0_<arch>_linux, a jump.
var fastEntry = map[elf.Machine][]int{
	// MOVQ SP, ·fastEntrySP(SB) (RIP-relative, 4 bytes of offset), then
	// MOVQ 0(SP), R12.
	elf.EM_X86_64: {0x48, 0x89, 0x25, anyByte, anyByte, anyByte, anyByte, 0x4c, 0x8b, 0x24, 0x24},
	// MOVD RSP, R0; then ADRP and STR of R0 to ·fastEntrySP (an address);
	// then MOVD 0(RSP), R19.
	elf.EM_AARCH64: {0xe0, 0x03, 0x00, 0x91, anyByte, anyByte, anyByte, anyByte, anyByte, anyByte, anyByte, anyByte, 0xf3, 0x03, 0x40, 0xf9},
}

// frontIsFast reports whether the front binary at path was linked with
// its fast path as its entry point (the Makefile, the release config and
// the test builds do; a plain `go build` or `go install` does not).
func frontIsFast(path string) (bool, error) {
	f, err := elf.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	want, ok := fastEntry[f.Machine]
	if !ok {
		return false, nil
	}
	for _, p := range f.Progs {
		if p.Type != elf.PT_LOAD || p.Flags&elf.PF_X == 0 || f.Entry < p.Vaddr || f.Entry-p.Vaddr+uint64(len(want)) > p.Filesz {
			continue
		}
		code := make([]byte, len(want))
		if _, err := p.ReadAt(code, int64(f.Entry-p.Vaddr)); err != nil {
			return false, err
		}
		return matches(code, want), nil
	}
	return false, errors.New("its entry point is in no loaded segment")
}

// anyByte stands for a byte of fastEntry that varies.
const anyByte = 0x100

// matches reports whether code is want, where want's anyByte matches every byte.
func matches(code []byte, want []int) bool {
	for i, w := range want {
		if w != anyByte && int(code[i]) != w {
			return false
		}
	}
	return true
}

// slowFrontNote is what install and doctor say of a front without its
// fast path.
const slowFrontNote = "was built without its fast path (a plain `go build` or `go install`): each hook then starts a Go runtime, about 1 ms more"

// slowFrontFix is how to get the fast path.
const slowFrontFix = "install with `make install` (it links the fast path), or build warden with -ldflags \"-E github.com/warden-dev/warden/internal/hookclient.entry\""
