//go:build unix

package hookserve

import (
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkServedHook is one PreToolUse answered by an in-process server
// over its socket, as the front hands it over (descriptors, environment,
// working directory): the server's share of a served hook's latency —
// reading and checking the request, the hook runtime on the shared
// store, the record, the reply — without the front's process start
// (bench/hook-latency measures the whole, against a bare Go process).
func BenchmarkServedHook(b *testing.B) { benchServedHook(b, false) }

// BenchmarkServedHookSockets is BenchmarkServedHook with the stdio a Node
// parent (Claude Code) gives its children: socket pairs, the payload in
// stdin before the request comes.
func BenchmarkServedHookSockets(b *testing.B) { benchServedHook(b, true) }

func benchServedHook(b *testing.B, sockets bool) {
	r := newRig(b, Options{})
	desc := strings.Repeat("list the files ", 100)
	in := `{"session_id":"bench","cwd":"` + r.home + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"t","tool_input":{"command":"ls -la","description":"` + desc + `"}}`
	// The umask is read once: the rig reads it from /proc for every call
	// otherwise, a client-side cost (~9% of this benchmark's CPU) that
	// hid the server's own in cpu-ns/op (the real front gets it with a
	// system call).
	c := call{args: hookArgs(), stdin: in, umask: readUmask(), sockets: sockets}
	r.do(b, c) // the first hook of a session creates its state
	b.ReportAllocs()
	cpu := cpuTime()
	for b.Loop() {
		if res := r.do(b, c); res.err != nil || res.declined || res.code != 0 || res.stderr != "" {
			b.Fatalf("%+v", res)
		}
	}
	reportCPU(b, cpu)
}

// reportCPU adds the process's CPU time (user+system, every goroutine:
// server, client, GC) per operation since start: on a shared machine it
// moves far less with the load than ns/op does.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
