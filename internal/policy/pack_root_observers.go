package policy

import (
	"net/netip"
	"path"
	"slices"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// rootObserverWork: a program that only watches (callfacts tools.txt
// observes: tcpdump, tshark, masscan, nmap, lshw) run as root, whose
// every output file is in a scratch directory or the project (sudo
// tcpdump -i lo -w /tmp/sip.pcap, sudo masscan … -oL scans/m.txt): root
// is needed to open the interface or the raw socket, not to change the
// machine. An output elsewhere (/etc, home data) or one the line does
// not show stays asked.
func rootObserverWork(e *Env, in *Cmd) bool {
	if !in.Observes() || in.Name == "gdb" && !gdbOnlyShows(in) {
		return false
	}
	if callfacts.Scans(in.Name) {
		outs := in.OutputFiles()
		for _, p := range in.Pos {
			if slices.Contains(outs, p) || !strings.Contains(p, ".") || strings.Trim(p, "0123456789.") == "" && strings.Count(p, ".") != 3 {
				continue // an output file, a count or a rate: not a target
			}
			if !smallOwnRange(p) {
				return false // a wide or outside range: a sweep that trips others' alarms
			}
		}
	}
	// a listener on any interface (tcpdump -i eth0, iftop, nethogs) reads
	// the traffic that passes, as a read of a log does, when it prints
	// it; a recording of others' traffic (-i any or eth0 -w file) is kept
	// only from loopback or a local bridge (this machine's and its
	// containers' traffic)
	if listenTools[in.Name] && len(in.OutputFiles()) > 0 {
		iface := optValue(in, "-i")
		if iface == "" {
			iface = optValue(in, "--interface")
		}
		if !localIface(iface) && !in.Has("-r") {
			return false
		}
	}
	return outputsStayLocal(e, in, in.OutputFiles())
}

// gdbOnlyShows: every command gdb -batch is given (-ex, -iex) shows
// the process (bt, thread apply all bt, info …, print, x, frame, list),
// and no script file (-x, -ix) is run: call, set var, kill or return
// would change it.
func gdbOnlyShows(in *Cmd) bool {
	for i, a := range in.Args {
		switch a {
		case "-x", "-ix", "--command", "--init-command":
			return false
		case "-ex", "-iex", "--eval-command", "--init-eval-command":
			if i+1 >= len(in.Args) {
				return false
			}
			f := strings.Fields(strings.Trim(in.Args[i+1], `"'`))
			if len(f) > 2 && f[0] == "thread" && f[1] == "apply" {
				f = f[3:] // thread apply all bt: what it applies to each
			}
			if len(f) == 0 || strings.ContainsRune(in.Args[i+1], '=') {
				return false
			}
			switch f[0] {
			case "bt", "backtrace", "where", "info", "i", "print", "p", "x", "frame", "f", "list", "l", "disassemble", "ptype", "whatis", "up", "down", "show":
			default:
				return false
			}
		}
	}
	return true
}

// outputsStayLocal: every file a root report or trace writes is in the
// project or a temp directory, and none is named by a value the line
// does not show.
func outputsStayLocal(e *Env, in *Cmd, files []string) bool {
	for _, f := range files {
		if strings.Contains(f, "$(") && !strings.Contains(path.Dir(f), "$") && onlyDatesCaptured(e) {
			f = path.Dir(f) + "/D" // /tmp/report-$(date +%F).html: a date in the name, the folder fixed
		}
		if f == "" || strings.ContainsAny(f, "$`") {
			return false
		}
		switch callfacts.ZoneOf(e.abs(in, f), e.F.Home, e.F.Project) {
		case callfacts.ZoneTemp, callfacts.ZoneProject:
		default:
			return false
		}
	}
	return true
}

// onlyDatesCaptured: every command the line substitutes is date (a
// stamp in a file name), none that could print a path.
func onlyDatesCaptured(e *Env) bool {
	n := 0
	for i := range e.F.Commands {
		if c := &e.F.Commands[i]; c.Captured {
			if c.Name != "date" {
				return false
			}
			n++
		}
	}
	return n > 0
}

// rootOwnFiles: chown run as root that gives files in the project back
// to the user (sudo chown -R dev:dev build/ out/, after a container or a
// root build left them root's): the owner is the home's user, by name,
// $USER or $(id -u), and every operand is in the project.
func rootOwnFiles(e *Env, in *Cmd) bool {
	if in.Name != "chown" || len(in.Pos) < 2 || e.F.Home == "" {
		return false
	}
	user := e.F.Home[strings.LastIndexByte(e.F.Home, '/')+1:]
	owner, group, _ := strings.Cut(in.Pos[0], ":")
	self := func(s string) bool {
		return s == user || s == "$USER" || s == "${USER}" || s == "$(id -u)" || s == "$(id -g)" || s == "$(whoami)"
	}
	if !self(owner) || group != "" && !self(group) && group != "staff" {
		return false
	}
	for _, p := range in.Pos[1:] {
		if strings.ContainsAny(p, "$`") || callfacts.ZoneOf(e.abs(in, p), e.F.Home, e.F.Project) != callfacts.ZoneProject {
			return false
		}
	}
	return true
}

// listenTools listen on an interface; the other observers scan targets
// or read this machine.
var listenTools = map[string]bool{"tcpdump": true, "tshark": true, "dumpcap": true, "termshark": true, "ngrep": true}

// localIface: loopback or a bridge to this machine's containers and VMs.
func localIface(i string) bool {
	if benchIface(i) {
		return true // a CAN, virtual or USB-gadget link to a bench (pack_root_bench.go)
	}
	for _, p := range []string{"lo", "docker", "br-", "virbr", "veth", "cni", "podman", "vboxnet", "vmnet", "lxdbr", "lxcbr"} {
		if strings.HasPrefix(i, p) {
			return true
		}
	}
	return false
}

// smallOwnRange: a scan target that is one host or a /24 (or narrower)
// on this machine or a private network.
func smallOwnRange(t string) bool {
	if pf, err := netip.ParsePrefix(t); err == nil {
		// a private /24 or narrower, or any block of 32 addresses or fewer
		// (a DMZ's /28: the few hosts a team runs, not a sweep)
		return pf.Addr().Is4() && (pf.Bits() >= 24 && (pf.Addr().IsPrivate() || pf.Addr().IsLoopback()) || pf.Bits() >= 27)
	}
	if a, err := netip.ParseAddr(t); err == nil {
		return a.IsPrivate() || a.IsLoopback()
	}
	return ownHost(t) && !strings.HasPrefix(t, "$")
}

// registryOptions name where a package manager pushes.
var registryOptions = []string{"--source", "-s", "--registry", "--repository-url", "--index-url", "--publish-url"}

// localRegistry: every registry c names is a folder on this machine
// (--source ./local-feed, --registry file:///tmp/reg,
// -DaltDeploymentRepository=local::file:./repo): what it pushes stays
// here.
func localRegistry(c *Cmd) bool {
	n := 0
	for _, o := range registryOptions {
		if v := optValue(c, o); v != "" {
			if !localFolder(v) {
				return false
			}
			n++
		}
	}
	for _, a := range c.Args {
		if v, ok := strings.CutPrefix(a, "-DaltDeploymentRepository="); ok {
			if i := strings.Index(v, "::"); i >= 0 {
				v = v[i+2:]
				if j := strings.Index(v, "::"); j >= 0 {
					v = v[j+2:]
				}
			}
			if !localFolder(v) {
				return false
			}
			n++
		}
	}
	return n > 0
}

// localFolder: a path, a file: URL or a URL on this machine, not a
// registry's name or address elsewhere.
func localFolder(v string) bool {
	v = strings.Trim(v, `"'`)
	if rest, ok := strings.CutPrefix(v, "file:"); ok {
		v = strings.TrimPrefix(rest, "//")
		return v != ""
	}
	if strings.Contains(v, "://") {
		return isLocalEndpoint(v) // a registry on this machine (verdaccio on localhost:4873)
	}
	return strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") || strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~/") || v == "."
}
