// The front's fast path: `warden hook` and `warden statusline` handed to
// the keeper before the Go runtime starts. See fast_linux_amd64.go for why
// and what falls through to the Go front.
//
// It is entered as the process's ELF entry point (`-ldflags -E`, set by the
// Makefile): SP points at argc, then argv, NULL, envp, NULL, auxv, as the
// kernel laid them out. It never changes that memory and leaves through
// toGo<> with SP as it found it, so the Go runtime's own entry
// (_rt0_amd64_linux) starts exactly as if it had been entered first.
// No signal handler is installed yet, so no syscall returns EINTR except
// after SIGSTOP/SIGCONT on a socket with a timeout; those are retried.

#include "textflag.h"

#define SYS_read 0
#define SYS_rt_sigaction 13
#define SYS_close 3
#define SYS_stat 4
#define SYS_fstat 5
#define SYS_socket 41
#define SYS_connect 42
#define SYS_sendmsg 46
#define SYS_setsockopt 54
#define SYS_getcwd 79
#define SYS_umask 95
#define SYS_exit_group 231

#define EINTR 4
#define AF_UNIX 1
#define SOCK_STREAM_CLOEXEC 0x80001
#define SOL_SOCKET 1
#define SCM_RIGHTS 1
#define SO_RCVTIMEO 20
#define SO_SNDTIMEO 21
#define MSG_NOSIGNAL 0x4000

// Outcomes handed to the Go front (fastOutcome, see client_unix.go).
#define RUN_HERE 1
#define NO_ANSWER 2
#define STOPPED 3

// The request buffer; a request that does not fit (a huge environment)
// is left to the Go front.
#define REQSIZE 262144
#define MAXSOCK 103
// Repeated keys are found by comparing each entry with those before it;
// an environment of more entries is left to the Go front (a map).
#define MAXENV 4096
// ... and while it compares at most this many bytes in all, so a crafted
// environment cannot make it slow either.
#define DUPBUDGET 4194304

GLOBL entrySP<>(SB), NOPTR, $8
GLOBL req<>(SB), NOPTR, $REQSIZE
GLOBL slot<>(SB), NOPTR, $8
GLOBL dot<>(SB), NOPTR, $144
GLOBL st<>(SB), NOPTR, $144
GLOBL cwdbuf<>(SB), NOPTR, $4096
GLOBL cwdptr<>(SB), NOPTR, $8
GLOBL cwdlen<>(SB), NOPTR, $8
GLOBL mask<>(SB), NOPTR, $8
GLOBL addr<>(SB), NOPTR, $112
GLOBL addrlen<>(SB), NOPTR, $8
GLOBL msg<>(SB), NOPTR, $56
GLOBL iov<>(SB), NOPTR, $16
GLOBL cmsg<>(SB), NOPTR, $32
GLOBL tv<>(SB), NOPTR, $16
GLOBL reply<>(SB), NOPTR, $8
GLOBL numbuf<>(SB), NOPTR, $24
GLOBL sock<>(SB), NOPTR, $8
GLOBL zero<>(SB), NOPTR, $8
// The signals the Go runtime catches and ignores (os/signal: "other
// signals will be caught but no action will be taken"), whose default
// action would end this process: ignored while it waits for the keeper,
// as the Go front would, and put back before the Go runtime starts.
// SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGXCPU, SIGXFSZ, SIGVTALRM,
// SIGPROF, SIGIO, SIGPWR.
#define NIGNORED 10
GLOBL ignored<>(SB), RODATA, $NIGNORED
DATA ignored<>+0(SB)/8, $"\x0a\x0c\x0d\x0e\x18\x19\x1a\x1b"
DATA ignored<>+8(SB)/2, $"\x1d\x1e"
GLOBL ignoreAct<>(SB), RODATA, $32
DATA ignoreAct<>+0(SB)/8, $1 // SIG_IGN; no flags, no restorer, empty mask
GLOBL savedActs<>(SB), NOPTR, $(NIGNORED*32)

GLOBL comma<>(SB), RODATA, $1
DATA comma<>+0(SB)/1, $","

GLOBL litHook<>(SB), RODATA, $4
DATA litHook<>+0(SB)/4, $"hook"
GLOBL litStatus<>(SB), RODATA, $10
DATA litStatus<>+0(SB)/8, $"statusli"
DATA litStatus<>+8(SB)/2, $"ne"
GLOBL keyKeeper<>(SB), RODATA, $14
DATA keyKeeper<>+0(SB)/8, $"WARDEN_K"
DATA keyKeeper<>+8(SB)/6, $"EEPER="
GLOBL keyWHome<>(SB), RODATA, $12
DATA keyWHome<>+0(SB)/8, $"WARDEN_H"
DATA keyWHome<>+8(SB)/4, $"OME="
GLOBL keyHome<>(SB), RODATA, $5
DATA keyHome<>+0(SB)/5, $"HOME="
GLOBL keyPWD<>(SB), RODATA, $4
DATA keyPWD<>+0(SB)/4, $"PWD="
GLOBL litOff<>(SB), RODATA, $3
DATA litOff<>+0(SB)/3, $"off"
GLOBL litZero<>(SB), RODATA, $1
DATA litZero<>+0(SB)/1, $"0"
GLOBL litFalse<>(SB), RODATA, $5
DATA litFalse<>+0(SB)/5, $"false"
GLOBL litNo<>(SB), RODATA, $2
DATA litNo<>+0(SB)/2, $"no"
GLOBL sufRun<>(SB), RODATA, $14
DATA sufRun<>+0(SB)/8, $"/run/hoo"
DATA sufRun<>+8(SB)/6, $"k.sock"
GLOBL sufWarden<>(SB), RODATA, $22
DATA sufWarden<>+0(SB)/8, $"/.warden"
DATA sufWarden<>+8(SB)/8, $"/run/hoo"
DATA sufWarden<>+16(SB)/6, $"k.sock"
GLOBL litDot<>(SB), RODATA, $2
DATA litDot<>+0(SB)/2, $".\x00"

// Registers kept across the whole path: R12 argc, R13 &argv[0],
// R14 &envp[0]. DI is the write cursor while the request is built.
TEXT ·entry(SB), NOSPLIT|NOFRAME, $0
	MOVQ SP, entrySP<>(SB)
	MOVQ 0(SP), R12
	LEAQ 8(SP), R13
	LEAQ 8(R13)(R12*8), R14

	// Only `warden hook …` and `warden statusline …`.
	CMPQ R12, $2
	JLT  bail
	MOVQ 8(R13), SI
	LEAQ litHook<>(SB), BX
	MOVQ $4, R8
	CALL streq<>(SB)
	TESTQ AX, AX
	JNZ  command
	MOVQ 8(R13), SI
	LEAQ litStatus<>(SB), BX
	MOVQ $10, R8
	CALL streq<>(SB)
	TESTQ AX, AX
	JZ   bail

command:
	// WARDEN_KEEPER=off (0, false, no): hookwire.KeeperOff.
	LEAQ keyKeeper<>(SB), BX
	MOVQ $14, R8
	CALL getenv<>(SB)
	TESTQ SI, SI
	JZ   keeperOn
	MOVQ SI, R10
	LEAQ litOff<>(SB), BX
	MOVQ $3, R8
	CALL streq<>(SB)
	TESTQ AX, AX
	JNZ  bail
	MOVQ R10, SI
	LEAQ litZero<>(SB), BX
	MOVQ $1, R8
	CALL streq<>(SB)
	TESTQ AX, AX
	JNZ  bail
	MOVQ R10, SI
	LEAQ litFalse<>(SB), BX
	MOVQ $5, R8
	CALL streq<>(SB)
	TESTQ AX, AX
	JNZ  bail
	MOVQ R10, SI
	LEAQ litNo<>(SB), BX
	MOVQ $2, R8
	CALL streq<>(SB)
	TESTQ AX, AX
	JNZ  bail

keeperOn:
	// passable(0): stdin is a pipe, a socket or a file.
	MOVQ $SYS_fstat, AX
	XORQ DI, DI
	LEAQ st<>(SB), SI
	SYSCALL
	TESTQ AX, AX
	JNZ  bail
	MOVL st<>+24(SB), AX
	ANDL $0xF000, AX
	CMPL AX, $0x1000
	JEQ  passable
	CMPL AX, $0xC000
	JEQ  passable
	CMPL AX, $0x8000
	JEQ  passable
	JMP  toGo<>(SB)

passable:
	// The socket: $WARDEN_HOME/run/hook.sock, else $HOME/.warden/run/hook.sock
	// (paths.HookSocket), for a home that filepath.Join leaves as it is.
	LEAQ keyWHome<>(SB), BX
	MOVQ $12, R8
	CALL getenv<>(SB)
	TESTQ SI, SI
	JZ   useHome
	MOVBLZX (SI), AX
	TESTL AX, AX
	JZ   useHome
	LEAQ sufRun<>(SB), R10
	MOVQ $14, R11
	JMP  haveBase

useHome:
	LEAQ keyHome<>(SB), BX
	MOVQ $5, R8
	CALL getenv<>(SB)
	TESTQ SI, SI
	JZ   bail
	LEAQ sufWarden<>(SB), R10
	MOVQ $22, R11

haveBase:
	CALL cleanabs<>(SB)
	LEAQ (CX)(R11*1), AX
	CMPQ AX, $MAXSOCK
	JGT  bail
	MOVW $AF_UNIX, addr<>(SB)
	LEAQ addr<>+2(SB), DI
	REP; MOVSB
	MOVQ R10, SI
	MOVQ R11, CX
	REP; MOVSB
	MOVB $0, (DI)
	LEAQ addr<>(SB), AX
	SUBQ AX, DI
	INCQ DI
	MOVQ DI, addrlen<>(SB)

	// The working directory as os.Getwd finds it: $PWD when it names ".",
	// else getcwd(2); its device and inode from stat(".").
	MOVQ $SYS_stat, AX
	LEAQ litDot<>(SB), DI
	LEAQ dot<>(SB), SI
	SYSCALL
	TESTQ AX, AX
	JNZ  bail
	LEAQ keyPWD<>(SB), BX
	MOVQ $4, R8
	CALL getenv<>(SB)
	TESTQ SI, SI
	JZ   callGetcwd
	MOVBLZX (SI), AX
	CMPL AX, $'/'
	JNE  callGetcwd
	MOVQ SI, R10
	MOVQ $SYS_stat, AX
	MOVQ R10, DI
	LEAQ st<>(SB), SI
	SYSCALL
	TESTQ AX, AX
	JNZ  callGetcwd
	MOVQ st<>+0(SB), AX
	CMPQ AX, dot<>+0(SB)
	JNE  callGetcwd
	MOVQ st<>+8(SB), AX
	CMPQ AX, dot<>+8(SB)
	JNE  callGetcwd
	MOVQ R10, SI
	CALL strlen<>(SB)
	MOVQ R10, cwdptr<>(SB)
	MOVQ CX, cwdlen<>(SB)
	JMP  readUmask

callGetcwd:
	MOVQ $SYS_getcwd, AX
	LEAQ cwdbuf<>(SB), DI
	MOVQ $4096, SI
	SYSCALL
	CMPQ AX, $2
	JLT  bail
	MOVBLZX cwdbuf<>(SB), CX
	CMPL CX, $'/'
	JNE  bail
	DECQ AX
	LEAQ cwdbuf<>(SB), CX
	MOVQ CX, cwdptr<>(SB)
	MOVQ AX, cwdlen<>(SB)

readUmask:
	// The umask can only be read by setting it.
	MOVQ $SYS_umask, AX
	MOVQ $0x12, DI
	SYSCALL
	MOVQ AX, mask<>(SB)
	MOVQ AX, DI
	MOVQ $SYS_umask, AX
	SYSCALL

	// The request (hookwire.Request.Encode): "WDNH2", then args, cwd,
	// environ and facts, each a big-endian uint32 length and its bytes.
	LEAQ req<>(SB), DI
	MOVL $0x484E4457, (DI)
	MOVB $'2', 4(DI)
	ADDQ $5, DI

	// args: argv[1:], NUL-joined.
	CALL fieldStart<>(SB)
	MOVQ $1, R9
argLoop:
	CMPQ R9, R12
	JGE  argDone
	CMPQ R9, $1
	JEQ  argCopy
	CALL putNUL<>(SB)
argCopy:
	MOVQ (R13)(R9*8), SI
	CALL strlen<>(SB)
	CALL copyn<>(SB)
	INCQ R9
	JMP  argLoop
argDone:
	CALL fieldEnd<>(SB)

	// cwd.
	CALL fieldStart<>(SB)
	MOVQ cwdptr<>(SB), SI
	MOVQ cwdlen<>(SB), CX
	CALL copyn<>(SB)
	CALL fieldEnd<>(SB)

	// environ as os.Environ gives it: empty entries and every entry of a
	// key after its first dropped, NUL-joined. R15 counts entries kept.
	// (Bailing out here is still before the socket: nothing was sent.)
	CALL fieldStart<>(SB)
	XORQ R9, R9
	XORQ R15, R15
	MOVQ $DUPBUDGET, R11
envLoop:
	MOVQ (R14)(R9*8), SI
	TESTQ SI, SI
	JZ   envDone
	CMPQ R9, $MAXENV
	JGE  bail
	MOVBLZX (SI), AX
	TESTL AX, AX
	JZ   envNext
	CALL dupkey<>(SB)
	TESTQ AX, AX
	JNZ  envNext
	TESTQ R15, R15
	JZ   envCopy
	CALL putNUL<>(SB)
envCopy:
	INCQ R15
	MOVQ (R14)(R9*8), SI
	CALL strlen<>(SB)
	CALL copyn<>(SB)
envNext:
	INCQ R9
	JMP  envLoop
envDone:
	CALL fieldEnd<>(SB)

	// facts: "umask,dev,ino" in decimal.
	CALL fieldStart<>(SB)
	MOVQ mask<>(SB), AX
	CALL utoa<>(SB)
	LEAQ comma<>(SB), SI
	MOVQ $1, CX
	CALL copyn<>(SB)
	MOVQ dot<>+0(SB), AX
	CALL utoa<>(SB)
	LEAQ comma<>(SB), SI
	MOVQ $1, CX
	CALL copyn<>(SB)
	MOVQ dot<>+8(SB), AX
	CALL utoa<>(SB)
	CALL fieldEnd<>(SB)

	// iov covers the whole request.
	LEAQ req<>(SB), AX
	MOVQ AX, iov<>+0(SB)
	SUBQ AX, DI
	MOVQ DI, iov<>+8(SB)

	// Connect, with the Go front's 2 s send and receive timeouts.
	MOVQ $SYS_socket, AX
	MOVQ $AF_UNIX, DI
	MOVQ $SOCK_STREAM_CLOEXEC, SI
	XORQ DX, DX
	SYSCALL
	TESTQ AX, AX
	JMI  bail
	MOVQ AX, sock<>(SB)
	// A descriptor below 3 means this process started with stdout or
	// stderr closed, and the socket took its place: it would be handed to
	// the keeper as the hook's output. The Go runtime opens /dev/null
	// there first (and so does the Go front).
	CMPQ AX, $3
	JLT  closeSock
	CALL ignoreSignals<>(SB)
	MOVQ $2, tv<>+0(SB)
	MOVQ $0, tv<>+8(SB)
	MOVQ $SO_SNDTIMEO, SI
	CALL setTimeout<>(SB)
	MOVQ $SO_RCVTIMEO, SI
	CALL setTimeout<>(SB)
	MOVQ $SYS_connect, AX
	MOVQ sock<>(SB), DI
	LEAQ addr<>(SB), SI
	MOVQ addrlen<>(SB), DX
	SYSCALL
	TESTQ AX, AX
	JNZ  runHere

	// Send it, descriptors 0, 1 and 2 with its first bytes.
	MOVQ $28, cmsg<>+0(SB)
	MOVL $SOL_SOCKET, cmsg<>+8(SB)
	MOVL $SCM_RIGHTS, cmsg<>+12(SB)
	MOVL $0, cmsg<>+16(SB)
	MOVL $1, cmsg<>+20(SB)
	MOVL $2, cmsg<>+24(SB)
	LEAQ iov<>(SB), AX
	MOVQ AX, msg<>+16(SB)
	MOVQ $1, msg<>+24(SB)
	LEAQ cmsg<>(SB), AX
	MOVQ AX, msg<>+32(SB)
	MOVQ $32, msg<>+40(SB)
sendLoop:
	MOVQ $SYS_sendmsg, AX
	MOVQ sock<>(SB), DI
	LEAQ msg<>(SB), SI
	MOVQ $MSG_NOSIGNAL, DX
	SYSCALL
	CMPQ AX, $-EINTR
	JEQ  sendLoop
	TESTQ AX, AX
	JLE  runHere
	MOVQ $0, msg<>+32(SB)
	MOVQ $0, msg<>+40(SB)
	ADDQ AX, iov<>+0(SB)
	SUBQ AX, iov<>+8(SB)
	CMPQ iov<>+8(SB), $0
	JGT  sendLoop

	// Accepted (then the exit code), or Declined before stdin was touched.
	LEAQ reply<>+0(SB), SI
	CALL readByte<>(SB)
	CMPQ AX, $1
	JNE  noAnswer
	MOVBLZX reply<>+0(SB), AX
	CMPL AX, $'D'
	JEQ  runHere
	CMPL AX, $'A'
	JNE  noAnswer
	MOVQ $660, tv<>+0(SB)
	MOVQ $SO_RCVTIMEO, SI
	CALL setTimeout<>(SB)
	LEAQ reply<>+1(SB), SI
	CALL readByte<>(SB)
	CMPQ AX, $1
	JNE  stopped
	MOVBLZX reply<>+1(SB), DI
	MOVQ $SYS_exit_group, AX
	SYSCALL
	JMP  stopped // not reached

runHere:
	MOVL $RUN_HERE, ·fastOutcome(SB)
	JMP  restore
noAnswer:
	MOVL $NO_ANSWER, ·fastOutcome(SB)
	JMP  restore
stopped:
	MOVL $STOPPED, ·fastOutcome(SB)
restore:
	CALL restoreSignals<>(SB)
closeSock:
	MOVQ $SYS_close, AX
	MOVQ sock<>(SB), DI
	SYSCALL
bail:
	JMP  toGo<>(SB)

// fallthrough starts the Go runtime as if it had been entered first.
TEXT toGo<>(SB), NOSPLIT|NOFRAME, $0
	MOVQ entrySP<>(SB), SP
	JMP  _rt0_amd64_linux(SB)

// streq: AX = 1 if the NUL-terminated SI is the R8 bytes at BX.
// Clobbers CX, DX.
TEXT streq<>(SB), NOSPLIT|NOFRAME, $0
	XORQ CX, CX
nextByte:
	CMPQ CX, R8
	JEQ  atEnd
	MOVBLZX (SI)(CX*1), AX
	MOVBLZX (BX)(CX*1), DX
	CMPL AX, DX
	JNE  notEqual
	INCQ CX
	JMP  nextByte
atEnd:
	MOVBLZX (SI)(CX*1), AX
	TESTL AX, AX
	JNZ  notEqual
	MOVQ $1, AX
	RET
notEqual:
	XORQ AX, AX
	RET

// getenv: SI = the value of the first environment entry starting with the
// R8 bytes at BX ("KEY="), else 0. Clobbers AX, CX, DX, R9.
TEXT getenv<>(SB), NOSPLIT|NOFRAME, $0
	MOVQ R14, R9
nextEnv:
	MOVQ (R9), SI
	TESTQ SI, SI
	JZ   notFound
	XORQ CX, CX
cmpKey:
	CMPQ CX, R8
	JEQ  foundKey
	MOVBLZX (SI)(CX*1), AX
	MOVBLZX (BX)(CX*1), DX
	CMPL AX, DX
	JNE  skipEnv
	INCQ CX
	JMP  cmpKey
foundKey:
	ADDQ R8, SI
	RET
skipEnv:
	ADDQ $8, R9
	JMP  nextEnv
notFound:
	XORQ SI, SI
	RET

// strlen: CX = the length of the NUL-terminated SI. Clobbers AX.
TEXT strlen<>(SB), NOSPLIT|NOFRAME, $0
	XORQ CX, CX
nextByte:
	MOVBLZX (SI)(CX*1), AX
	TESTL AX, AX
	JZ   finished
	INCQ CX
	JMP  nextByte
finished:
	RET

// cleanabs: CX = the length of the NUL-terminated SI if it is an absolute
// path filepath.Clean leaves unchanged (no empty, "." or ".." element, no
// trailing slash); else the Go front takes over. Clobbers AX.
TEXT cleanabs<>(SB), NOSPLIT|NOFRAME, $0
	MOVBLZX (SI), AX
	CMPL AX, $'/'
	JNE  notClean
	XORQ CX, CX
scanPath:
	MOVBLZX (SI)(CX*1), AX
	TESTL AX, AX
	JZ   finished
	CMPL AX, $'/'
	JNE  nextChar
	MOVBLZX 1(SI)(CX*1), AX
	TESTL AX, AX
	JZ   notClean
	CMPL AX, $'/'
	JEQ  notClean
	CMPL AX, $'.'
	JNE  nextChar
	MOVBLZX 2(SI)(CX*1), AX
	TESTL AX, AX
	JZ   notClean
	CMPL AX, $'/'
	JEQ  notClean
	CMPL AX, $'.'
	JNE  nextChar
	MOVBLZX 3(SI)(CX*1), AX
	TESTL AX, AX
	JZ   notClean
	CMPL AX, $'/'
	JEQ  notClean
nextChar:
	INCQ CX
	JMP  scanPath
finished:
	RET
notClean:
	JMP  toGo<>(SB)

// copyn copies CX bytes from SI to the cursor DI; a request that would
// outgrow the buffer is left to the Go front. Clobbers AX, CX, DX, SI.
TEXT copyn<>(SB), NOSPLIT|NOFRAME, $0
	LEAQ (DI)(CX*1), AX
	LEAQ req<>+REQSIZE(SB), DX
	CMPQ AX, DX
	JGT  noRoom
	REP; MOVSB
	RET
noRoom:
	JMP  toGo<>(SB)

// putNUL writes one NUL separator. Clobbers AX, CX, DX, SI.
TEXT putNUL<>(SB), NOSPLIT|NOFRAME, $0
	LEAQ zero<>(SB), SI
	MOVQ $1, CX
	JMP  copyn<>(SB)

// fieldStart leaves room for a field's length at DI (clobbers AX, CX,
// DX, SI); fieldEnd fills it in (clobbers AX, CX).
TEXT fieldStart<>(SB), NOSPLIT|NOFRAME, $0
	LEAQ zero<>(SB), SI
	MOVQ DI, slot<>(SB)
	MOVQ $4, CX
	JMP  copyn<>(SB)

TEXT fieldEnd<>(SB), NOSPLIT|NOFRAME, $0
	MOVQ slot<>(SB), AX
	MOVQ DI, CX
	SUBQ AX, CX
	SUBQ $4, CX
	BSWAPL CX
	MOVL CX, (AX)
	RET

// dupkey: AX = 1 if the entry SI has a key ("KEY=…") that an entry
// before index R9 of envp already has. Each byte compared counts down
// R11; at 0 the Go front takes over. Clobbers CX, DX, BX, R8, R10.
TEXT dupkey<>(SB), NOSPLIT|NOFRAME, $0
	XORQ CX, CX
findEq:
	MOVBLZX (SI)(CX*1), AX
	TESTL AX, AX
	JZ   unique
	CMPL AX, $'='
	JEQ  haveEq
	INCQ CX
	JMP  findEq
haveEq:
	XORQ R10, R10
earlier:
	CMPQ R10, R9
	JGE  unique
	MOVQ (R14)(R10*8), BX
	XORQ DX, DX
sameByte:
	DECQ R11
	JZ   overBudget
	MOVBLZX (SI)(DX*1), AX
	MOVBLZX (BX)(DX*1), R8
	CMPL AX, R8
	JNE  nextEntry
	CMPQ DX, CX
	JEQ  isDup
	INCQ DX
	JMP  sameByte
nextEntry:
	INCQ R10
	JMP  earlier
isDup:
	MOVQ $1, AX
	RET
unique:
	XORQ AX, AX
	RET
overBudget:
	JMP  toGo<>(SB)

// utoa appends AX in decimal at DI. Clobbers AX, CX, DX, SI, R8.
TEXT utoa<>(SB), NOSPLIT|NOFRAME, $0
	LEAQ numbuf<>+24(SB), SI
	MOVQ $10, R8
nextDigit:
	XORQ DX, DX
	DIVQ R8
	ADDQ $'0', DX
	DECQ SI
	MOVB DX, (SI)
	TESTQ AX, AX
	JNZ  nextDigit
	LEAQ numbuf<>+24(SB), CX
	SUBQ SI, CX
	JMP  copyn<>(SB)

// ignoreSignals sets each signal of ignored to SIG_IGN, keeping its
// action in savedActs; restoreSignals puts them back. Clobbers AX, CX,
// DX, SI, DI, R8, R9, R10, R11.
TEXT ignoreSignals<>(SB), NOSPLIT|NOFRAME, $0
	XORQ R9, R9
nextIgnore:
	CMPQ R9, $NIGNORED
	JGE  ignoredAll
	LEAQ ignored<>(SB), AX
	MOVBQZX (AX)(R9*1), DI
	LEAQ ignoreAct<>(SB), SI
	MOVQ R9, DX
	SHLQ $5, DX
	LEAQ savedActs<>(SB), AX
	ADDQ AX, DX
	MOVQ $8, R10
	MOVQ $SYS_rt_sigaction, AX
	SYSCALL
	INCQ R9
	JMP  nextIgnore
ignoredAll:
	RET

TEXT restoreSignals<>(SB), NOSPLIT|NOFRAME, $0
	XORQ R9, R9
nextRestore:
	CMPQ R9, $NIGNORED
	JGE  restoredAll
	LEAQ ignored<>(SB), AX
	MOVBQZX (AX)(R9*1), DI
	MOVQ R9, SI
	SHLQ $5, SI
	LEAQ savedActs<>(SB), AX
	ADDQ AX, SI
	XORQ DX, DX
	MOVQ $8, R10
	MOVQ $SYS_rt_sigaction, AX
	SYSCALL
	INCQ R9
	JMP  nextRestore
restoredAll:
	RET

// setTimeout sets socket option SI (SO_SNDTIMEO, SO_RCVTIMEO) to tv.
TEXT setTimeout<>(SB), NOSPLIT|NOFRAME, $0
	MOVQ $SYS_setsockopt, AX
	MOVQ sock<>(SB), DI
	MOVQ SI, DX
	MOVQ $SOL_SOCKET, SI
	LEAQ tv<>(SB), R10
	MOVQ $16, R8
	SYSCALL
	RET

// readByte reads one byte of the reply into SI; AX = read's result.
TEXT readByte<>(SB), NOSPLIT|NOFRAME, $0
	MOVQ SI, R10
retry:
	MOVQ $SYS_read, AX
	MOVQ sock<>(SB), DI
	MOVQ R10, SI
	MOVQ $1, DX
	SYSCALL
	CMPQ AX, $-EINTR
	JEQ  retry
	RET
