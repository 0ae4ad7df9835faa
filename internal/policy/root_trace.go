package policy

import (
	"strings"
)

// Tracing under sudo is a read: bpftrace, the BCC tools (opensnoop,
// execsnoop, biolatency, also named *-bpfcc), DTrace, sysdig, perf's
// recording forms, and strace/ltrace attached to a running process, need
// root to load a probe or attach, and print what the kernel or the process
// does; they change nothing but their output file. Each with the options
// that make it act (bpftrace --unsafe runs system(), dtrace -w allows
// destructive actions, perf probe adds a kernel probe, strace's fault
// injection) stays asked, and strace or perf given a command to run runs
// that command as root (judged as such).

// traceTools: tracer → the options (or, for perf, the subcommands) that
// make it do more than watch.
var traceTools = map[string][]string{
	"bpftrace": {"--unsafe"}, "dtrace": {"-w", "--destructive"}, "sysdig": {"-c", "--chisel"}, "csysdig": nil,
	"perf":   nil, // its acting forms are subcommands: perfReads
	"strace": {"--inject", "--fault"}, "ltrace": nil,
	// the BCC and bpftrace tool collections
	"opensnoop": nil, "execsnoop": nil, "exitsnoop": nil, "killsnoop": nil, "statsnoop": nil, "biolatency": nil, "biosnoop": nil, "biotop": nil,
	"tcpconnect": nil, "tcpaccept": nil, "tcplife": nil, "tcpretrans": nil, "tcptop": nil, "tcpdrop": nil, "runqlat": nil, "runqlen": nil,
	"offcputime": nil, "oncputime": nil, "profile": nil, "funccount": nil, "funclatency": nil, "stackcount": nil, "syscount": nil, "argdist": nil,
	"trace": nil, "ext4slower": nil, "xfsslower": nil, "cachestat": nil, "cachetop": nil, "gethostlatency": nil, "capable": nil, "oomkill": nil,
	"mountsnoop": nil, "filetop": nil, "fileslower": nil, "vfsstat": nil, "memleak": nil, "ttysnoop": nil, "sslsniff": nil,
}

// perfReads are perf's subcommands that only count, record or report;
// with a command after them perf runs it.
var perfReads = map[string]bool{"record": true, "top": true, "stat": true, "trace": true, "report": true, "list": true, "annotate": true, "mem": true, "c2c": true, "sched": true}

// rootTraceWork: what sudo runs is a tracer that only watches, with its
// output file (-o, -w) in the project or a scratch directory.
func rootTraceWork(e *Env, in *Cmd) bool {
	name := strings.TrimSuffix(strings.TrimSuffix(in.Name, "-bpfcc"), ".bt")
	more, ok := traceTools[name]
	if !ok || name == "sslsniff" {
		return false // sslsniff prints TLS plain text: secrets, judged by its own rules
	}
	switch name {
	case "perf":
		if len(in.Pos) == 0 || !perfReads[in.Pos[0]] {
			return false // perf probe adds a kernel probe
		}
		rest := in.Pos[1:]
		if len(rest) == 2 && rest[0] == "sleep" {
			rest = rest[1:] // perf record -a -g -- sleep 30: the sleep only times the system-wide recording
		}
		for _, p := range rest {
			if strings.Trim(p, "0123456789,.") != "" && in.Pos[0] != "report" && in.Pos[0] != "list" {
				return false // perf record ./app, perf stat -a sleep 5: runs the command as root
			}
		}
	case "strace", "ltrace":
		if !in.Has("-p", "--attach") || in.Has(more...) || strings.Contains(in.String(), "inject=") || strings.Contains(in.String(), "fault=") {
			return false // strace ./app runs ./app as root
		}
		for _, p := range in.Pos {
			if strings.Trim(p, "0123456789, $()") != "" && !strings.HasPrefix(p, "trace=") && !strings.HasPrefix(p, "-") {
				if i := strings.Index(in.String(), p); i < 0 || !strings.HasSuffix(strings.TrimSpace(in.String()[:i]), "-e") && !strings.HasSuffix(strings.TrimSpace(in.String()[:i]), "-o") && !strings.HasSuffix(strings.TrimSpace(in.String()[:i]), "-s") {
					return false
				}
			}
		}
	default:
		if in.Has(more...) {
			return false
		}
	}
	var outs []string
	for _, o := range []string{"-o", "-w", "--output"} {
		if f := optValue(in, o); f != "" {
			outs = append(outs, f)
		}
	}
	return outputsStayLocal(e, in, outs)
}
