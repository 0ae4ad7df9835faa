//go:build linux && (amd64 || arm64)

package hookclient

// entry is the front's fast path, in fast_linux_amd64.s and
// fast_linux_arm64.s (their data in fast_data_linux.s): the process's ELF
// entry point when the front is linked with
//
//	-ldflags "-E github.com/warden-dev/warden/internal/hookclient.entry"
//
// (the Makefile does; a plain `go build` leaves it out and the front is
// the Go program alone, only slower).
//
// Why: a Go program spends most of a hook's time before main — the
// runtime maps its heap, starts its threads and faults its pages in. On
// the VM this was measured on, a bare Go program that does nothing took
// 1.2–2.8 ms to run, the same binary entered here and leaving at once
// 0.3–0.4 ms. The keeper does the hook's work already; the front only has
// to pass its descriptors, arguments, working directory and environment
// over a unix socket and wait for the exit code (internal/hookwire), which
// is a few system calls. So `warden hook` and `warden statusline` do
// exactly what viaKeeper does, in assembly, before the runtime starts,
// and exit with the keeper's code.
//
// Anything off the common path is left to the Go front, which starts as
// if entered first (the stack the kernel laid out is untouched) and reads
// fastOutcome to know how far the fast path got: untried (another
// command, WARDEN_KEEPER=off, stdin a terminal, a home path filepath.Join
// would change, no working directory, a request over 256 KiB), or tried
// and the keeper was not there or declined, or it took the hook and
// stopped. fast_linux_test.go checks that both paths send the same
// bytes and end the same way.
//
// Two things the Go runtime would do before main are done here too: a
// process started with stdout or stderr closed is left to the Go front
// (the socket would take the free descriptor and be handed over as the
// hook's output; the runtime opens /dev/null there first), and the
// signals the runtime catches and ignores (SIGUSR1, SIGALRM, SIGPIPE, …)
// are ignored while the front waits. One difference remains, on purpose:
// SIGQUIT, SIGABRT and the like take their default action here (the Go
// front prints its goroutines and exits 2, which Claude Code would read as
// a block).
func entry()
