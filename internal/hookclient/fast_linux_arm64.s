// The front's fast path on linux/arm64: the same steps as
// fast_linux_amd64.s, in the same order and with the same outcomes (see
// there, and fast_linux.go for why). Only the machine differs:
//
//   - The kernel leaves RSP at argc, then argv, NULL, envp, NULL, auxv;
//     toGo<> puts RSP back and enters _rt0_arm64_linux. Calls are BL to
//     leaf routines (LR only): nothing is written to the stack at all.
//   - Syscalls take their number in R8 and arguments in R0–R5, and return
//     in R0 (a negative errno on failure). There is no stat(2): stat is
//     fstatat(AT_FDCWD, path, buf, 0), as Go's os.Stat does here.
//   - struct stat keeps st_mode at offset 16 (24 on amd64).
//
// Registers kept across the whole path: R19 argc, R20 &argv[0], R21
// &envp[0], R22 the write cursor while the request is built, R23 the
// argument or environment index, R24 the compare budget, R25 the
// environment entries kept. R27 is the assembler's and R28 the Go
// runtime's: neither is used.

#include "textflag.h"
#include "fast_linux.h"

#define SYS_getcwd 17
#define SYS_close 57
#define SYS_read 63
#define SYS_fstatat 79
#define SYS_fstat 80
#define SYS_exit_group 94
#define SYS_rt_sigaction 134
#define SYS_umask 166
#define SYS_socket 198
#define SYS_connect 203
#define SYS_setsockopt 208
#define SYS_sendmsg 211

#define AT_FDCWD -100

TEXT ·entry(SB), NOSPLIT|NOFRAME, $0
	MOVD RSP, R0
	MOVD R0, ·fastEntrySP(SB)
	MOVD 0(RSP), R19
	ADD  $8, RSP, R20
	ADD  $1, R19, R0
	ADD  R0<<3, R20, R21

	// Only `warden hook …` and `warden statusline …`.
	CMP  $2, R19
	BLT  bail
	MOVD 8(R20), R1
	MOVD $·fastCommands(SB), R2
	BL   oneOf<>(SB)
	CBZ  R0, bail

	// WARDEN_KEEPER=off (0, false, no): hookwire.KeeperOff.
	MOVD $·fastKeyKeeper(SB), R2
	MOVD $14, R6
	BL   getenv<>(SB)
	CBZ  R1, keeperOn
	MOVD $·fastOffValues(SB), R2
	BL   oneOf<>(SB)
	CBNZ R0, bail

keeperOn:
	// passable(0): stdin is a pipe, a socket or a file.
	MOVD $0, R0
	MOVD $·fastSt(SB), R1
	MOVD $SYS_fstat, R8
	SVC
	CBNZ R0, bail
	MOVWU ·fastSt+16(SB), R0
	AND  $0xF000, R0
	CMP  $0x1000, R0
	BEQ  passable
	CMP  $0xC000, R0
	BEQ  passable
	CMP  $0x8000, R0
	BEQ  passable
	B    bail

passable:
	// The socket: $WARDEN_HOME/run/hook.sock, else $HOME/.warden/run/hook.sock.
	MOVD $·fastKeyWHome(SB), R2
	MOVD $12, R6
	BL   getenv<>(SB)
	CBZ  R1, useHome
	MOVBU (R1), R0
	CBZ  R0, useHome
	MOVD $·fastSufRun(SB), R10
	MOVD $14, R11
	B    haveBase

useHome:
	MOVD $·fastKeyHome(SB), R2
	MOVD $5, R6
	BL   getenv<>(SB)
	CBZ  R1, bail
	MOVD $·fastSufWarden(SB), R10
	MOVD $22, R11

haveBase:
	BL   cleanabs<>(SB)
	ADD  R3, R11, R0
	CMP  $MAXSOCK, R0
	BGT  bail
	MOVD $AF_UNIX, R0
	MOVH R0, ·fastAddr(SB)
	MOVD $·fastAddr+2(SB), R22
	BL   copyRaw<>(SB)
	MOVD R10, R1
	MOVD R11, R3
	BL   copyRaw<>(SB)
	MOVB ZR, (R22)
	MOVD $·fastAddr(SB), R0
	SUB  R0, R22, R0
	ADD  $1, R0
	MOVD R0, ·fastAddrlen(SB)

	// The working directory as os.Getwd finds it: $PWD when it names ".",
	// else getcwd(2); its device and inode from stat(".").
	MOVD $AT_FDCWD, R0
	MOVD $·fastLitDot(SB), R1
	MOVD $·fastDot(SB), R2
	MOVD $0, R3
	MOVD $SYS_fstatat, R8
	SVC
	CBNZ R0, bail
	MOVD $·fastKeyPWD(SB), R2
	MOVD $4, R6
	BL   getenv<>(SB)
	CBZ  R1, callGetcwd
	MOVBU (R1), R0
	CMP  $'/', R0
	BNE  callGetcwd
	MOVD R1, R10
	MOVD $AT_FDCWD, R0
	MOVD $·fastSt(SB), R2
	MOVD $0, R3
	MOVD $SYS_fstatat, R8
	SVC
	CBNZ R0, callGetcwd
	MOVD ·fastSt+0(SB), R0
	MOVD ·fastDot+0(SB), R1
	CMP  R1, R0
	BNE  callGetcwd
	MOVD ·fastSt+8(SB), R0
	MOVD ·fastDot+8(SB), R1
	CMP  R1, R0
	BNE  callGetcwd
	MOVD R10, R1
	BL   strlen<>(SB)
	MOVD R10, ·fastCwdptr(SB)
	MOVD R3, ·fastCwdlen(SB)
	B    readUmask

callGetcwd:
	MOVD $·fastCwdbuf(SB), R0
	MOVD $4096, R1
	MOVD $SYS_getcwd, R8
	SVC
	CMP  $2, R0
	BLT  bail
	MOVD $·fastCwdbuf(SB), R1
	MOVBU (R1), R2
	CMP  $'/', R2
	BNE  bail
	SUB  $1, R0
	MOVD R1, ·fastCwdptr(SB)
	MOVD R0, ·fastCwdlen(SB)

readUmask:
	// The umask can only be read by setting it.
	MOVD $0x12, R0
	MOVD $SYS_umask, R8
	SVC
	MOVD R0, ·fastMask(SB)
	MOVD $SYS_umask, R8
	SVC

	// The request (hookwire.Request.Encode): "WDNH2", then args, cwd,
	// environ and facts, each a big-endian uint32 length and its bytes.
	MOVD $·fastReq(SB), R22
	MOVW $0x484E4457, R0
	MOVW R0, (R22)
	MOVD $'2', R0
	MOVB R0, 4(R22)
	ADD  $5, R22

	// args: argv[1:], NUL-joined.
	BL   fieldStart<>(SB)
	MOVD $1, R23
argLoop:
	CMP  R19, R23
	BGE  argDone
	CMP  $1, R23
	BEQ  argCopy
	BL   putNUL<>(SB)
argCopy:
	MOVD (R20)(R23<<3), R1
	BL   strlen<>(SB)
	BL   copyn<>(SB)
	ADD  $1, R23
	B    argLoop
argDone:
	BL   fieldEnd<>(SB)

	// cwd.
	BL   fieldStart<>(SB)
	MOVD ·fastCwdptr(SB), R1
	MOVD ·fastCwdlen(SB), R3
	BL   copyn<>(SB)
	BL   fieldEnd<>(SB)

	// environ as os.Environ gives it (see fast_linux_amd64.s), except that
	// an environment with a key twice is left to the Go front: under
	// qemu-user, the only arm64 the tests have, a process never sees a
	// key twice (qemu keeps the last), so code that drops repeats could
	// not be tested here.
	BL   fieldStart<>(SB)
	MOVD $0, R23
	MOVD $0, R25
	MOVD $DUPBUDGET, R24
envLoop:
	MOVD (R21)(R23<<3), R1
	CBZ  R1, envDone
	CMP  $MAXENV, R23
	BGE  bail
	MOVBU (R1), R0
	CBZ  R0, envNext
	BL   dupkey<>(SB)
	CBNZ R0, bail
	CBZ  R25, envCopy
	BL   putNUL<>(SB)
envCopy:
	ADD  $1, R25
	MOVD (R21)(R23<<3), R1
	BL   strlen<>(SB)
	BL   copyn<>(SB)
envNext:
	ADD  $1, R23
	B    envLoop
envDone:
	BL   fieldEnd<>(SB)

	// facts: "umask,dev,ino" in decimal.
	BL   fieldStart<>(SB)
	MOVD ·fastMask(SB), R0
	BL   utoa<>(SB)
	MOVD $·fastComma(SB), R1
	MOVD $1, R3
	BL   copyn<>(SB)
	MOVD ·fastDot+0(SB), R0
	BL   utoa<>(SB)
	MOVD $·fastComma(SB), R1
	MOVD $1, R3
	BL   copyn<>(SB)
	MOVD ·fastDot+8(SB), R0
	BL   utoa<>(SB)
	BL   fieldEnd<>(SB)

	// iov covers the whole request.
	MOVD $·fastReq(SB), R0
	MOVD R0, ·fastIov+0(SB)
	SUB  R0, R22, R1
	MOVD R1, ·fastIov+8(SB)

	// Connect, with the Go front's 2 s send and receive timeouts.
	MOVD $AF_UNIX, R0
	MOVD $SOCK_STREAM_CLOEXEC, R1
	MOVD $0, R2
	MOVD $SYS_socket, R8
	SVC
	CMP  $0, R0
	BLT  bail
	MOVD R0, ·fastSock(SB)
	// Below 3: stdout or stderr was closed (see fast_linux_amd64.s).
	CMP  $3, R0
	BLT  closeSock
	BL   ignoreSignals<>(SB)
	MOVD $2, R0
	MOVD R0, ·fastTv+0(SB)
	MOVD ZR, ·fastTv+8(SB)
	MOVD $SO_SNDTIMEO, R1
	BL   setTimeout<>(SB)
	MOVD $SO_RCVTIMEO, R1
	BL   setTimeout<>(SB)
	MOVD ·fastSock(SB), R0
	MOVD $·fastAddr(SB), R1
	MOVD ·fastAddrlen(SB), R2
	MOVD $SYS_connect, R8
	SVC
	CBNZ R0, runHere

	// Send it, descriptors 0, 1 and 2 with its first bytes.
	MOVD $28, R0
	MOVD R0, ·fastCmsg+0(SB)
	MOVD $SOL_SOCKET, R0
	MOVW R0, ·fastCmsg+8(SB)
	MOVD $SCM_RIGHTS, R0
	MOVW R0, ·fastCmsg+12(SB)
	MOVW ZR, ·fastCmsg+16(SB)
	MOVD $1, R0
	MOVW R0, ·fastCmsg+20(SB)
	MOVD $2, R0
	MOVW R0, ·fastCmsg+24(SB)
	MOVD $·fastIov(SB), R0
	MOVD R0, ·fastMsg+16(SB)
	MOVD $1, R0
	MOVD R0, ·fastMsg+24(SB)
	MOVD $·fastCmsg(SB), R0
	MOVD R0, ·fastMsg+32(SB)
	MOVD $32, R0
	MOVD R0, ·fastMsg+40(SB)
sendLoop:
	MOVD ·fastSock(SB), R0
	MOVD $·fastMsg(SB), R1
	MOVD $MSG_NOSIGNAL, R2
	MOVD $SYS_sendmsg, R8
	SVC
	CMN  $EINTR, R0
	BEQ  sendLoop
	CMP  $0, R0
	BLE  runHere
	MOVD ZR, ·fastMsg+32(SB)
	MOVD ZR, ·fastMsg+40(SB)
	MOVD ·fastIov+0(SB), R1
	ADD  R0, R1
	MOVD R1, ·fastIov+0(SB)
	MOVD ·fastIov+8(SB), R1
	SUB  R0, R1
	MOVD R1, ·fastIov+8(SB)
	CBNZ R1, sendLoop

	// Accepted (then the exit code), or Declined before stdin was touched.
	MOVD $·fastReply(SB), R1
	BL   readByte<>(SB)
	CMP  $1, R0
	BNE  noAnswer
	MOVD $·fastReply(SB), R1
	MOVBU (R1), R0
	CMP  $'D', R0
	BEQ  runHere
	CMP  $'A', R0
	BNE  noAnswer
	MOVD $660, R0
	MOVD R0, ·fastTv+0(SB)
	MOVD $SO_RCVTIMEO, R1
	BL   setTimeout<>(SB)
	MOVD $·fastReply+1(SB), R1
	BL   readByte<>(SB)
	CMP  $1, R0
	BNE  stopped
	MOVD $·fastReply(SB), R1
	MOVBU 1(R1), R0
	MOVD $SYS_exit_group, R8
	SVC
	B    stopped // not reached

runHere:
	MOVD $RUN_HERE, R0
	MOVW R0, ·fastOutcome(SB)
	B    restore
noAnswer:
	MOVD $NO_ANSWER, R0
	MOVW R0, ·fastOutcome(SB)
	B    restore
stopped:
	MOVD $STOPPED, R0
	MOVW R0, ·fastOutcome(SB)
restore:
	BL   restoreSignals<>(SB)
closeSock:
	MOVD ·fastSock(SB), R0
	MOVD $SYS_close, R8
	SVC
bail:
	B    toGo<>(SB)

// toGo starts the Go runtime as if it had been entered first.
TEXT toGo<>(SB), NOSPLIT|NOFRAME, $0
	MOVD ·fastEntrySP(SB), R0
	MOVD R0, RSP
	B    _rt0_arm64_linux(SB)

// oneOf: R0 = 1 if the NUL-terminated R1 is one of the words at R2 (each
// NUL-terminated, an empty word last). Clobbers R2, R3, R4.
TEXT oneOf<>(SB), NOSPLIT|NOFRAME, $0
nextWord:
	MOVBU (R2), R0
	CBZ  R0, noWord
	MOVD $0, R3
sameChar:
	MOVBU (R1)(R3), R0
	MOVBU (R2)(R3), R4
	CMP  R4, R0
	BNE  skipWord
	ADD  $1, R3
	CBNZ R0, sameChar
	MOVD $1, R0 // both ended together
	RET
skipWord:
	MOVBU (R2), R0
	ADD  $1, R2
	CBNZ R0, skipWord
	B    nextWord
noWord:
	MOVD $0, R0
	RET

// getenv: R1 = the value of the first environment entry starting with the
// R6 bytes at R2 ("KEY="), else 0. Clobbers R0, R3, R4, R7.
TEXT getenv<>(SB), NOSPLIT|NOFRAME, $0
	MOVD R21, R7
nextEnv:
	MOVD (R7), R1
	CBZ  R1, notFound
	MOVD $0, R3
cmpKey:
	CMP  R6, R3
	BEQ  foundKey
	MOVBU (R1)(R3), R0
	MOVBU (R2)(R3), R4
	CMP  R4, R0
	BNE  skipEnv
	ADD  $1, R3
	B    cmpKey
foundKey:
	ADD  R6, R1
	RET
skipEnv:
	ADD  $8, R7
	B    nextEnv
notFound:
	MOVD $0, R1
	RET

// strlen: R3 = the length of the NUL-terminated R1. Clobbers R0.
TEXT strlen<>(SB), NOSPLIT|NOFRAME, $0
	MOVD $0, R3
nextByte:
	MOVBU (R1)(R3), R0
	CBZ  R0, finished
	ADD  $1, R3
	B    nextByte
finished:
	RET

// cleanabs: R3 = the length of the NUL-terminated R1 if it is an absolute
// path filepath.Clean leaves unchanged; else the Go front takes over.
// Clobbers R0, R4.
TEXT cleanabs<>(SB), NOSPLIT|NOFRAME, $0
	MOVBU (R1), R0
	CMP  $'/', R0
	BNE  notClean
	MOVD $0, R3
scanPath:
	MOVBU (R1)(R3), R0
	CBZ  R0, finished
	CMP  $'/', R0
	BNE  nextChar
	ADD  R3, R1, R4
	MOVBU 1(R4), R0
	CBZ  R0, notClean
	CMP  $'/', R0
	BEQ  notClean
	CMP  $'.', R0
	BNE  nextChar
	MOVBU 2(R4), R0
	CBZ  R0, notClean
	CMP  $'/', R0
	BEQ  notClean
	CMP  $'.', R0
	BNE  nextChar
	MOVBU 3(R4), R0
	CBZ  R0, notClean
	CMP  $'/', R0
	BEQ  notClean
nextChar:
	ADD  $1, R3
	B    scanPath
finished:
	RET
notClean:
	B    toGo<>(SB)

// copyn copies R3 bytes from R1 to the cursor R22; a request that would
// outgrow the buffer is left to the Go front. copyRaw copies without the
// check (into the socket address). Both clobber R0, R1, R3, R4.
TEXT copyn<>(SB), NOSPLIT|NOFRAME, $0
	ADD  R3, R22, R0
	MOVD $·fastReq+REQSIZE(SB), R4
	CMP  R4, R0
	BHI  noRoom
	B    copyRaw<>(SB)
noRoom:
	B    toGo<>(SB)

TEXT copyRaw<>(SB), NOSPLIT|NOFRAME, $0
nextCopy:
	CBZ  R3, copied
	MOVBU.P 1(R1), R0
	MOVB.P R0, 1(R22)
	SUB  $1, R3
	B    nextCopy
copied:
	RET

// putNUL writes one NUL separator. Clobbers R0, R1, R3, R4.
TEXT putNUL<>(SB), NOSPLIT|NOFRAME, $0
	MOVD $·fastZero(SB), R1
	MOVD $1, R3
	B    copyn<>(SB)

// fieldStart leaves room for a field's length at R22 (clobbers R0, R1,
// R3, R4); fieldEnd fills it in (clobbers R0, R3).
TEXT fieldStart<>(SB), NOSPLIT|NOFRAME, $0
	MOVD R22, ·fastSlot(SB)
	MOVD $·fastZero(SB), R1
	MOVD $4, R3
	B    copyn<>(SB)

TEXT fieldEnd<>(SB), NOSPLIT|NOFRAME, $0
	MOVD ·fastSlot(SB), R0
	SUB  R0, R22, R3
	SUB  $4, R3
	REVW R3, R3
	MOVW R3, (R0)
	RET

// dupkey: R0 = 1 if the entry R1 has a key ("KEY=…") that an entry before
// index R23 of envp already has (the Go front takes over then). Each byte compared counts down R24; at 0
// the Go front takes over. Clobbers R2, R3, R4, R5, R6.
TEXT dupkey<>(SB), NOSPLIT|NOFRAME, $0
	MOVD $0, R3
findEq:
	MOVBU (R1)(R3), R0
	CBZ  R0, unique
	CMP  $'=', R0
	BEQ  haveEq
	ADD  $1, R3
	B    findEq
haveEq:
	MOVD $0, R5
earlier:
	CMP  R23, R5
	BGE  unique
	MOVD (R21)(R5<<3), R2
	MOVD $0, R4
sameByte:
	SUBS $1, R24
	BEQ  overBudget
	MOVBU (R1)(R4), R0
	MOVBU (R2)(R4), R6
	CMP  R6, R0
	BNE  nextEntry
	CMP  R3, R4
	BEQ  isDup
	ADD  $1, R4
	B    sameByte
nextEntry:
	ADD  $1, R5
	B    earlier
isDup:
	MOVD $1, R0
	RET
unique:
	MOVD $0, R0
	RET
overBudget:
	B    toGo<>(SB)

// utoa appends R0 in decimal at R22. Clobbers R0–R5.
TEXT utoa<>(SB), NOSPLIT|NOFRAME, $0
	MOVD $·fastNumbuf+24(SB), R1
	MOVD $10, R2
nextDigit:
	UDIV R2, R0, R3
	MUL  R2, R3, R4
	SUB  R4, R0, R5
	ADD  $'0', R5
	SUB  $1, R1
	MOVB R5, (R1)
	MOVD R3, R0
	CBNZ R0, nextDigit
	MOVD $·fastNumbuf+24(SB), R3
	SUB  R1, R3, R3
	B    copyn<>(SB)

// ignoreSignals sets each signal of fastIgnored to SIG_IGN, keeping its
// action in fastSavedActs; restoreSignals puts them back. Clobber R0–R3,
// R8, R9.
TEXT ignoreSignals<>(SB), NOSPLIT|NOFRAME, $0
	MOVD $0, R9
nextIgnore:
	CMP  $NIGNORED, R9
	BGE  ignoredAll
	MOVD $·fastIgnored(SB), R0
	MOVBU (R0)(R9), R0
	MOVD $·fastIgnoreAct(SB), R1
	MOVD $·fastSavedActs(SB), R2
	ADD  R9<<5, R2, R2
	MOVD $8, R3
	MOVD $SYS_rt_sigaction, R8
	SVC
	ADD  $1, R9
	B    nextIgnore
ignoredAll:
	RET

TEXT restoreSignals<>(SB), NOSPLIT|NOFRAME, $0
	MOVD $0, R9
nextRestore:
	CMP  $NIGNORED, R9
	BGE  restoredAll
	MOVD $·fastIgnored(SB), R0
	MOVBU (R0)(R9), R0
	MOVD $·fastSavedActs(SB), R1
	ADD  R9<<5, R1, R1
	MOVD $0, R2
	MOVD $8, R3
	MOVD $SYS_rt_sigaction, R8
	SVC
	ADD  $1, R9
	B    nextRestore
restoredAll:
	RET

// setTimeout sets socket option R1 (SO_SNDTIMEO, SO_RCVTIMEO) to fastTv.
// Clobbers R0–R4, R8.
TEXT setTimeout<>(SB), NOSPLIT|NOFRAME, $0
	MOVD R1, R2
	MOVD ·fastSock(SB), R0
	MOVD $SOL_SOCKET, R1
	MOVD $·fastTv(SB), R3
	MOVD $16, R4
	MOVD $SYS_setsockopt, R8
	SVC
	RET

// readByte reads one byte of the reply into R1; R0 = read's result.
// Clobbers R1, R2, R8, R9.
TEXT readByte<>(SB), NOSPLIT|NOFRAME, $0
	MOVD R1, R9
retry:
	MOVD ·fastSock(SB), R0
	MOVD R9, R1
	MOVD $1, R2
	MOVD $SYS_read, R8
	SVC
	CMN  $EINTR, R0
	BEQ  retry
	RET
