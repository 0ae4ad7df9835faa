//go:build linux && (amd64 || arm64)

// The fast path's data (see fast_linux.go): the buffers it builds the
// request in and the words and keys it looks for. Package-level symbols,
// so each architecture's code (fast_linux_<arch>.s) uses the same.

#include "textflag.h"
#include "fast_linux.h"

GLOBL ·fastEntrySP(SB), NOPTR, $8
GLOBL ·fastReq(SB), NOPTR, $REQSIZE
GLOBL ·fastSlot(SB), NOPTR, $8
GLOBL ·fastDot(SB), NOPTR, $144
GLOBL ·fastSt(SB), NOPTR, $144
GLOBL ·fastCwdbuf(SB), NOPTR, $4096
GLOBL ·fastCwdptr(SB), NOPTR, $8
GLOBL ·fastCwdlen(SB), NOPTR, $8
GLOBL ·fastMask(SB), NOPTR, $8
GLOBL ·fastAddr(SB), NOPTR, $112
GLOBL ·fastAddrlen(SB), NOPTR, $8
GLOBL ·fastMsg(SB), NOPTR, $56
GLOBL ·fastIov(SB), NOPTR, $16
GLOBL ·fastCmsg(SB), NOPTR, $32
GLOBL ·fastTv(SB), NOPTR, $16
GLOBL ·fastReply(SB), NOPTR, $8
GLOBL ·fastNumbuf(SB), NOPTR, $24
GLOBL ·fastSock(SB), NOPTR, $8
GLOBL ·fastZero(SB), NOPTR, $8
// The signals the Go runtime catches and ignores (os/signal: "other
// signals will be caught but no action will be taken"), whose default
// action would end this process: ignored while it waits for the keeper,
// as the Go front would, and put back before the Go runtime starts.
// SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGXCPU, SIGXFSZ, SIGVTALRM,
// SIGPROF, SIGIO, SIGPWR.
GLOBL ·fastIgnored(SB), RODATA, $NIGNORED
DATA ·fastIgnored+0(SB)/8, $"\x0a\x0c\x0d\x0e\x18\x19\x1a\x1b"
DATA ·fastIgnored+8(SB)/2, $"\x1d\x1e"
GLOBL ·fastIgnoreAct(SB), RODATA, $32
DATA ·fastIgnoreAct+0(SB)/8, $1 // SIG_IGN; no flags, no restorer, empty mask
GLOBL ·fastSavedActs(SB), NOPTR, $(NIGNORED*32)

GLOBL ·fastComma(SB), RODATA, $1
DATA ·fastComma+0(SB)/1, $","

// Word lists for oneOf: each word NUL-terminated, an empty word last.
GLOBL ·fastCommands(SB), RODATA, $17
DATA ·fastCommands+0(SB)/8, $"hook\x00sta"
DATA ·fastCommands+8(SB)/8, $"tusline\x00"
DATA ·fastCommands+16(SB)/1, $"\x00"
GLOBL ·fastOffValues(SB), RODATA, $16
DATA ·fastOffValues+0(SB)/8, $"off\x000\x00fa"
DATA ·fastOffValues+8(SB)/8, $"lse\x00no\x00\x00"
GLOBL ·fastKeyKeeper(SB), RODATA, $14
DATA ·fastKeyKeeper+0(SB)/8, $"WARDEN_K"
DATA ·fastKeyKeeper+8(SB)/6, $"EEPER="
GLOBL ·fastKeyWHome(SB), RODATA, $12
DATA ·fastKeyWHome+0(SB)/8, $"WARDEN_H"
DATA ·fastKeyWHome+8(SB)/4, $"OME="
GLOBL ·fastKeyHome(SB), RODATA, $5
DATA ·fastKeyHome+0(SB)/5, $"HOME="
GLOBL ·fastKeyPWD(SB), RODATA, $4
DATA ·fastKeyPWD+0(SB)/4, $"PWD="
GLOBL ·fastSufRun(SB), RODATA, $14
DATA ·fastSufRun+0(SB)/8, $"/run/hoo"
DATA ·fastSufRun+8(SB)/6, $"k.sock"
GLOBL ·fastSufWarden(SB), RODATA, $22
DATA ·fastSufWarden+0(SB)/8, $"/.warden"
DATA ·fastSufWarden+8(SB)/8, $"/run/hoo"
DATA ·fastSufWarden+16(SB)/6, $"k.sock"
GLOBL ·fastLitDot(SB), RODATA, $2
DATA ·fastLitDot+0(SB)/2, $".\x00"
