// The front's fast path: `warden hook` and `warden statusline` handed to
// the keeper before the Go runtime starts. See fast_linux.go for why
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
#include "fast_linux.h"

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

// Registers kept across the whole path: R12 argc, R13 &argv[0],
// R14 &envp[0]. DI is the write cursor while the request is built.
TEXT ·entry(SB), NOSPLIT|NOFRAME, $0
	MOVQ SP, ·fastEntrySP(SB)
	MOVQ 0(SP), R12
	LEAQ 8(SP), R13
	LEAQ 8(R13)(R12*8), R14

	// Only `warden hook …` and `warden statusline …`.
	CMPQ R12, $2
	JLT  bail
	MOVQ 8(R13), SI
	LEAQ ·fastCommands(SB), BX
	CALL oneOf<>(SB)
	TESTQ AX, AX
	JZ   bail

	// WARDEN_KEEPER=off (0, false, no): hookwire.KeeperOff.
	LEAQ ·fastKeyKeeper(SB), BX
	MOVQ $14, R8
	CALL getenv<>(SB)
	TESTQ SI, SI
	JZ   keeperOn
	LEAQ ·fastOffValues(SB), BX
	CALL oneOf<>(SB)
	TESTQ AX, AX
	JNZ  bail

keeperOn:
	// passable(0): stdin is a pipe, a socket or a file.
	MOVQ $SYS_fstat, AX
	XORQ DI, DI
	LEAQ ·fastSt(SB), SI
	SYSCALL
	TESTQ AX, AX
	JNZ  bail
	MOVL ·fastSt+24(SB), AX
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
	LEAQ ·fastKeyWHome(SB), BX
	MOVQ $12, R8
	CALL getenv<>(SB)
	TESTQ SI, SI
	JZ   useHome
	MOVBLZX (SI), AX
	TESTL AX, AX
	JZ   useHome
	LEAQ ·fastSufRun(SB), R10
	MOVQ $14, R11
	JMP  haveBase

useHome:
	LEAQ ·fastKeyHome(SB), BX
	MOVQ $5, R8
	CALL getenv<>(SB)
	TESTQ SI, SI
	JZ   bail
	LEAQ ·fastSufWarden(SB), R10
	MOVQ $22, R11

haveBase:
	CALL cleanabs<>(SB)
	LEAQ (CX)(R11*1), AX
	CMPQ AX, $MAXSOCK
	JGT  bail
	MOVW $AF_UNIX, ·fastAddr(SB)
	LEAQ ·fastAddr+2(SB), DI
	REP; MOVSB
	MOVQ R10, SI
	MOVQ R11, CX
	REP; MOVSB
	MOVB $0, (DI)
	LEAQ ·fastAddr(SB), AX
	SUBQ AX, DI
	INCQ DI
	MOVQ DI, ·fastAddrlen(SB)

	// The working directory as os.Getwd finds it: $PWD when it names ".",
	// else getcwd(2); its device and inode from stat(".").
	MOVQ $SYS_stat, AX
	LEAQ ·fastLitDot(SB), DI
	LEAQ ·fastDot(SB), SI
	SYSCALL
	TESTQ AX, AX
	JNZ  bail
	LEAQ ·fastKeyPWD(SB), BX
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
	LEAQ ·fastSt(SB), SI
	SYSCALL
	TESTQ AX, AX
	JNZ  callGetcwd
	MOVQ ·fastSt+0(SB), AX
	CMPQ AX, ·fastDot+0(SB)
	JNE  callGetcwd
	MOVQ ·fastSt+8(SB), AX
	CMPQ AX, ·fastDot+8(SB)
	JNE  callGetcwd
	MOVQ R10, SI
	CALL strlen<>(SB)
	MOVQ R10, ·fastCwdptr(SB)
	MOVQ CX, ·fastCwdlen(SB)
	JMP  readUmask

callGetcwd:
	MOVQ $SYS_getcwd, AX
	LEAQ ·fastCwdbuf(SB), DI
	MOVQ $4096, SI
	SYSCALL
	CMPQ AX, $2
	JLT  bail
	MOVBLZX ·fastCwdbuf(SB), CX
	CMPL CX, $'/'
	JNE  bail
	DECQ AX
	LEAQ ·fastCwdbuf(SB), CX
	MOVQ CX, ·fastCwdptr(SB)
	MOVQ AX, ·fastCwdlen(SB)

readUmask:
	// The umask can only be read by setting it.
	MOVQ $SYS_umask, AX
	MOVQ $0x12, DI
	SYSCALL
	MOVQ AX, ·fastMask(SB)
	MOVQ AX, DI
	MOVQ $SYS_umask, AX
	SYSCALL

	// The request (hookwire.Request.Encode): "WDNH2", then args, cwd,
	// environ and facts, each a big-endian uint32 length and its bytes.
	LEAQ ·fastReq(SB), DI
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
	MOVQ ·fastCwdptr(SB), SI
	MOVQ ·fastCwdlen(SB), CX
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
	MOVQ ·fastMask(SB), AX
	CALL utoa<>(SB)
	LEAQ ·fastComma(SB), SI
	MOVQ $1, CX
	CALL copyn<>(SB)
	MOVQ ·fastDot+0(SB), AX
	CALL utoa<>(SB)
	LEAQ ·fastComma(SB), SI
	MOVQ $1, CX
	CALL copyn<>(SB)
	MOVQ ·fastDot+8(SB), AX
	CALL utoa<>(SB)
	CALL fieldEnd<>(SB)

	// iov covers the whole request.
	LEAQ ·fastReq(SB), AX
	MOVQ AX, ·fastIov+0(SB)
	SUBQ AX, DI
	MOVQ DI, ·fastIov+8(SB)

	// Connect, with the Go front's 2 s send and receive timeouts.
	MOVQ $SYS_socket, AX
	MOVQ $AF_UNIX, DI
	MOVQ $SOCK_STREAM_CLOEXEC, SI
	XORQ DX, DX
	SYSCALL
	TESTQ AX, AX
	JMI  bail
	MOVQ AX, ·fastSock(SB)
	// A descriptor below 3 means this process started with stdout or
	// stderr closed, and the socket took its place: it would be handed to
	// the keeper as the hook's output. The Go runtime opens /dev/null
	// there first (and so does the Go front).
	CMPQ AX, $3
	JLT  closeSock
	CALL ignoreSignals<>(SB)
	MOVQ $2, ·fastTv+0(SB)
	MOVQ $0, ·fastTv+8(SB)
	MOVQ $SO_SNDTIMEO, SI
	CALL setTimeout<>(SB)
	MOVQ $SO_RCVTIMEO, SI
	CALL setTimeout<>(SB)
	MOVQ $SYS_connect, AX
	MOVQ ·fastSock(SB), DI
	LEAQ ·fastAddr(SB), SI
	MOVQ ·fastAddrlen(SB), DX
	SYSCALL
	TESTQ AX, AX
	JNZ  runHere

	// Send it, descriptors 0, 1 and 2 with its first bytes.
	MOVQ $28, ·fastCmsg+0(SB)
	MOVL $SOL_SOCKET, ·fastCmsg+8(SB)
	MOVL $SCM_RIGHTS, ·fastCmsg+12(SB)
	MOVL $0, ·fastCmsg+16(SB)
	MOVL $1, ·fastCmsg+20(SB)
	MOVL $2, ·fastCmsg+24(SB)
	LEAQ ·fastIov(SB), AX
	MOVQ AX, ·fastMsg+16(SB)
	MOVQ $1, ·fastMsg+24(SB)
	LEAQ ·fastCmsg(SB), AX
	MOVQ AX, ·fastMsg+32(SB)
	MOVQ $32, ·fastMsg+40(SB)
sendLoop:
	MOVQ $SYS_sendmsg, AX
	MOVQ ·fastSock(SB), DI
	LEAQ ·fastMsg(SB), SI
	MOVQ $MSG_NOSIGNAL, DX
	SYSCALL
	CMPQ AX, $-EINTR
	JEQ  sendLoop
	TESTQ AX, AX
	JLE  runHere
	MOVQ $0, ·fastMsg+32(SB)
	MOVQ $0, ·fastMsg+40(SB)
	ADDQ AX, ·fastIov+0(SB)
	SUBQ AX, ·fastIov+8(SB)
	CMPQ ·fastIov+8(SB), $0
	JGT  sendLoop

	// Accepted (then the exit code), or Declined before stdin was touched.
	LEAQ ·fastReply+0(SB), SI
	CALL readByte<>(SB)
	CMPQ AX, $1
	JNE  noAnswer
	MOVBLZX ·fastReply+0(SB), AX
	CMPL AX, $'D'
	JEQ  runHere
	CMPL AX, $'A'
	JNE  noAnswer
	MOVQ $660, ·fastTv+0(SB)
	MOVQ $SO_RCVTIMEO, SI
	CALL setTimeout<>(SB)
	LEAQ ·fastReply+1(SB), SI
	CALL readByte<>(SB)
	CMPQ AX, $1
	JNE  stopped
	MOVBLZX ·fastReply+1(SB), DI
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
	MOVQ ·fastSock(SB), DI
	SYSCALL
bail:
	JMP  toGo<>(SB)

// fallthrough starts the Go runtime as if it had been entered first.
TEXT toGo<>(SB), NOSPLIT|NOFRAME, $0
	MOVQ ·fastEntrySP(SB), SP
	JMP  _rt0_amd64_linux(SB)

// oneOf: AX = 1 if the NUL-terminated SI is one of the words at BX
// (each NUL-terminated, an empty word last). Clobbers BX, CX, DX.
TEXT oneOf<>(SB), NOSPLIT|NOFRAME, $0
nextWord:
	MOVBLZX (BX), AX
	TESTL AX, AX
	JZ   noWord
	XORQ CX, CX
sameChar:
	MOVBLZX (SI)(CX*1), AX
	MOVBLZX (BX)(CX*1), DX
	CMPL AX, DX
	JNE  skipWord
	INCQ CX
	TESTL AX, AX
	JNZ  sameChar
	MOVQ $1, AX // both ended together
	RET
skipWord:
	MOVBLZX (BX), AX
	INCQ BX
	TESTL AX, AX
	JNZ  skipWord
	JMP  nextWord
noWord:
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
	LEAQ ·fastReq+REQSIZE(SB), DX
	CMPQ AX, DX
	JGT  noRoom
	REP; MOVSB
	RET
noRoom:
	JMP  toGo<>(SB)

// putNUL writes one NUL separator. Clobbers AX, CX, DX, SI.
TEXT putNUL<>(SB), NOSPLIT|NOFRAME, $0
	LEAQ ·fastZero(SB), SI
	MOVQ $1, CX
	JMP  copyn<>(SB)

// fieldStart leaves room for a field's length at DI (clobbers AX, CX,
// DX, SI); fieldEnd fills it in (clobbers AX, CX).
TEXT fieldStart<>(SB), NOSPLIT|NOFRAME, $0
	LEAQ ·fastZero(SB), SI
	MOVQ DI, ·fastSlot(SB)
	MOVQ $4, CX
	JMP  copyn<>(SB)

TEXT fieldEnd<>(SB), NOSPLIT|NOFRAME, $0
	MOVQ ·fastSlot(SB), AX
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
	LEAQ ·fastNumbuf+24(SB), SI
	MOVQ $10, R8
nextDigit:
	XORQ DX, DX
	DIVQ R8
	ADDQ $'0', DX
	DECQ SI
	MOVB DX, (SI)
	TESTQ AX, AX
	JNZ  nextDigit
	LEAQ ·fastNumbuf+24(SB), CX
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
	LEAQ ·fastIgnored(SB), AX
	MOVBQZX (AX)(R9*1), DI
	LEAQ ·fastIgnoreAct(SB), SI
	MOVQ R9, DX
	SHLQ $5, DX
	LEAQ ·fastSavedActs(SB), AX
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
	LEAQ ·fastIgnored(SB), AX
	MOVBQZX (AX)(R9*1), DI
	MOVQ R9, SI
	SHLQ $5, SI
	LEAQ ·fastSavedActs(SB), AX
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
	MOVQ ·fastSock(SB), DI
	MOVQ SI, DX
	MOVQ $SOL_SOCKET, SI
	LEAQ ·fastTv(SB), R10
	MOVQ $16, R8
	SYSCALL
	RET

// readByte reads one byte of the reply into SI; AX = read's result.
TEXT readByte<>(SB), NOSPLIT|NOFRAME, $0
	MOVQ SI, R10
retry:
	MOVQ $SYS_read, AX
	MOVQ ·fastSock(SB), DI
	MOVQ R10, SI
	MOVQ $1, DX
	SYSCALL
	CMPQ AX, $-EINTR
	JEQ  retry
	RET
