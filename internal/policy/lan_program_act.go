package policy

import (
	"net/netip"
	"path"
	"slices"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// s27-lanact: a program pointed at another machine on the local network
// with an act in its words. Every field drives its equipment through
// small programs nobody lists: a substation's IEC 61850 client (mms_ctl.py
// --ied 10.60.1.21 --operate …), a fab's SECS/GEM host (gemhost.py --tool
// etch-07.fab2.local:5000 s2f41 --rcmd START), a lab's instrument tool
// (upload_method.py --instrument hplc-03.lab.local), a PLC's loader
// (s7_download.py --plc 10.20.3.11), a library client in a one-liner
// (RainbirdController('192.168.10.40', …).irrigate_zone(7, 30)). Their
// names say nothing warden knows; what they do is on the line: an option
// or an argument names a machine of the local network (a private
// address, a host of an organisation's zone under .local, .lan, .home or
// .internal, a one-label mDNS name that is not a developer's own app),
// and a word of the line acts (operate, write, set, delete, start, stop,
// abort, pause, apply, upload, send, irrigate, dispense, reboot…), read
// in this order: the option names (--operate, --set-clock, --delete),
// then the first words after the program (a subcommand, a protocol
// message that acts: SECS s2f41), then an option's value that is a bare
// act word (--lamp off, --rcmd PAUSE), then the program's own name
// (hermes_send.py, upload_method.py). A read in the same place (--status,
// --get, --list, status, query, dump, show) and a dry run or --help stay
// allowed, as does a program given no LAN machine and a developer's own
// web-dev name (myapp.local: remoteops.txt lan-own-host). The words are
// data (remoteops.txt lan-act-*, lan-device-read), not per program.
//
// .local: callfacts.LocalHost counts every .local name as this machine,
// right for a web developer's myapp.local and wrong for a site's
// hplc-03.lab.local; this reading uses lanDeviceHost, which tells them
// apart, so the rule is not a cmdRule of a Remote pack (whose skip would
// drop a .local target as this machine's).

// lanMachineValue is the LAN machine v names (an address, a host, a
// host:port, a URL, user@host), "" for none.
func lanMachineValue(v string) string {
	v = strings.Trim(v, `"'`)
	if len(v) < 7 || !strings.Contains(v, ".") {
		return ""
	}
	h := urlHost(v)
	if h == "" || strings.ContainsAny(h, "/$*{}") || strings.HasSuffix(h, ".") {
		return ""
	}
	l := strings.ToLower(h)
	if strings.HasSuffix(l, ".internal") {
		// a cloud's or a site's internal zone; Docker's and Podman's
		// name for this machine are not another box
		if strings.HasSuffix(l, "docker.internal") || strings.HasSuffix(l, "containers.internal") || l == "metadata.google.internal" {
			return ""
		}
		return h
	}
	if a, err := netip.ParseAddr(h); err == nil && (a.IsLoopback() || a.IsUnspecified()) {
		return ""
	}
	if !lanHost(l) || !lanDeviceHost("http://"+l) {
		return ""
	}
	if first, rest, _ := strings.Cut(l, "."); !strings.Contains(rest, ".") && opsList("lan-act-own-host")[strings.TrimRight(first, "0123456789-")] {
		return "" // db.local, redis.local: a developer's own service
	}
	return h
}

// lanArgs splits a program's arguments after skip into option names,
// option values and positionals (an option takes the next argument as
// its value when it does not start with a dash).
type lanArgs struct {
	opts, vals, pos []string
}

func splitLanArgs(args []string) lanArgs {
	var r lanArgs
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			r.pos = append(r.pos, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || len(a) < 2 || a[1] >= '0' && a[1] <= '9' {
			r.pos = append(r.pos, a)
			continue
		}
		k, v, has := strings.Cut(a, "=")
		r.opts = append(r.opts, k)
		if !has && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			v, has = args[i+1], true
			i++
		}
		if has {
			r.vals = append(r.vals, v)
		} else {
			r.vals = append(r.vals, "")
		}
	}
	return r
}

// lanWordClass is "act", "read" or "" for the words of s: an act word
// anywhere makes it act (set-clock, send_remote_command), else a read
// word reads.
func lanWordClass(s string) string {
	acts, msgs, reads, more, whole := opsList("lan-act-verb"), opsList("lan-act-msg"), opsList("lan-device-read"), opsList("lan-act-read"), opsList("lan-act-whole")
	class := ""
	ws := wordsOf(s)
	for _, w := range ws {
		switch {
		case whole[w] && len(ws) > 1:
			// upgrade_available, update-check: a noun's part, not the act
		case acts[w] || msgs[w]:
			return "act"
		case reads[w] || more[w]:
			class = "read"
		}
	}
	return class
}

// lanOptClass reads an option by its first word (--operate, --set-clock,
// --delete act; --status, --get-config, --dry-run read). A weak act
// word counts only alone (--disable, --clear: not --disable-ssl-verify,
// --load-bank, --clear-cache), and --no-… options say nothing.
func lanOptClass(o string) string {
	w := wordsOf(o)
	if len(w) == 0 || w[0] == "no" || o == "-f" || o == "--force" || opsList("lan-act-notopt")[w[0]] && len(w) == 1 {
		return ""
	}
	if opsList("lan-act-optphrase")[strings.Join(w, "-")] {
		return "act"
	}
	switch {
	case opsList("lan-act-verb")[w[0]]:
		if len(w) > 1 && opsList("lan-act-weak")[w[0]] {
			return ""
		}
		return "act"
	case opsList("lan-device-read")[w[0]] || opsList("lan-act-read")[w[0]]:
		return "read"
	}
	return ""
}

// lanProgramAct says why a program (its own name, its arguments) acts
// on the machine it is given; "" when its words read or say nothing.
func lanProgramAct(name string, args []string) string {
	a := splitLanArgs(args)
	act, read := "", false
	if ws := wordsOf(name); len(ws) > 1 && lanControllerWords(name, a.opts) && (ws[len(ws)-1] == "download" || slices.Contains(ws, "download") && slices.Contains(ws, "to")) {
		return "its name " + name // s7_download.py --plc, download_to_plc: a program loaded onto the controller (not plc_download_logs)
	}
	if lanNameReads(name) {
		return "" // read_plc.py --write regs.csv, fetch_log.py --start 2024-05-01: named for a read
	}
	for i, o := range a.opts {
		if lanRangeOpt(o, a.vals[i]) {
			continue // --start 2024-05-01, --stop 10: a range, not an act
		}
		if opsList("lan-act-carrier")[strings.TrimLeft(o, "-")] && a.vals[i] != "" {
			// --cmd "callback 30", --rcmd START: the value is the command
			read = read || act == "" // the command carried decides, not the program's name (kodi-send --action=UpdateLibrary)
			switch lanCarried(a.vals[i]) {
			case "act":
				if act == "" {
					act = o + " " + a.vals[i]
				}
			case "read":
				read = true
			}
			continue
		}
		switch lanOptClass(o) {
		case "act":
			if act == "" {
				act = "its option " + o
			}
		case "read":
			read = true
		}
	}
	if act != "" {
		return act
	}
	if read {
		return ""
	}
	for i, p := range a.pos[:min(3, len(a.pos))] {
		if strings.ContainsAny(p, "/=@.") {
			continue // the host, a file, KEY=VALUE
		}
		switch lanWordClass(p) {
		case "act":
			if opsList("lan-act-whole")[strings.ToLower(p)] && i+1 < len(a.pos) && lanWordClass(a.pos[i+1]) == "read" {
				return "" // onecli update scan: the update's read
			}
			return "its command " + p
		case "read":
			if i < 2 {
				return ""
			}
		}
	}
	for i, v := range a.vals {
		if v != "" && !strings.ContainsAny(v, " ./:") && opsList("lan-act-verb")[strings.ToLower(v)] {
			return a.opts[i] + " " + v // --lamp off, --state open
		}
	}
	ws := wordsOf(name)
	acted := false
	for _, w := range ws {
		if opsList("lan-device-read")[w] || opsList("lan-act-read")[w] {
			return "" // test_send, check_upload: named for a read
		}
		if opsList("lan-act-verb")[w] || w == "download" && lanControllerWords(name, a.opts) {
			acted = true // a download to a controller (s7_download --plc) loads a program onto it
		}
	}
	if acted {
		return "its name " + name
	}
	return ""
}

// lanCarried reads a command an option carries (START,
// RemoteStartTransaction, "GetConfiguration", "show status"): "read"
// when its first word reads, "act" when a word of it acts.
func lanCarried(v string) string {
	var ws []string
	for _, t := range strings.FieldsFunc(v, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_')
	}) {
		ws = append(ws, methodWords(t)...)
	}
	if len(ws) == 0 {
		return ""
	}
	if opsList("lan-device-read")[ws[0]] || opsList("lan-act-read")[ws[0]] {
		return "read"
	}
	for _, w := range ws {
		if opsList("lan-act-verb")[w] && !(opsList("lan-act-whole")[w] && len(ws) > 1) {
			return "act" // (UpdateLibrary: a library rescanned, not the device updated)
		}
	}
	return ""
}

// lanControllerWords: the program's name or its options name a
// controller (plc, rtu, ied, s7): its "download" loads a program onto it.
func lanControllerWords(name string, opts []string) bool {
	for _, w := range wordsOf(name + " " + strings.Join(opts, " ")) {
		if controllerWords[w] || w == "s7" || w == "ied" || w == "drive" || w == "robot" {
			return true
		}
	}
	return false
}

// lanTarget is the LAN machine among a program's option values and
// arguments, "" for none; the value of an option that names this
// machine's own address (--bind, --listen, an allowed --subnet) is not
// one (remoteops.txt lan-act-selfopt).
func lanTarget(args []string) string {
	if len(args) == 0 {
		return ""
	}
	a := splitLanArgs(args)
	self, svc := opsList("lan-act-selfopt"), opsList("lan-act-svcopt")
opts:
	for i, o := range a.opts {
		if self[strings.TrimLeft(o, "-")] {
			continue
		}
		for _, w := range wordsOf(o) {
			if svc[w] {
				continue opts // --db-host, --redis-url: a service's host
			}
		}
		if h := lanMachineValue(a.vals[i]); h != "" {
			return h
		}
	}
	for _, p := range a.pos {
		if h := lanMachineValue(p); h != "" {
			return h
		}
	}
	return ""
}

// lanProgramName is the program c runs and its arguments when c is a
// project script or a program no table knows; "" otherwise.
func lanProgramName(c *Cmd) (string, []string) {
	if p, args := scriptRun(c); p != "" {
		b := p[strings.LastIndexByte(p, '/')+1:]
		if i := strings.LastIndexByte(b, '.'); i > 0 {
			b = b[:i]
		}
		return b, args
	}
	if unknownProgram(c) && !callfacts.IsInterpreter(c.Name) && !callfacts.IsShell(c.Name) {
		return c.Name, c.Args
	}
	return "", nil
}

// lanCodeString finds quoted strings in code.
var lanCodeString = re(`['"]([^'"\s]{7,80})['"]`)

// lanCodeCall finds the methods code calls and the first word of their
// first argument when it is quoted (remote_command('ABORT'),
// send_command('show version')), and a call's keyword argument given a
// message or a call (Request(dish_stow=DishStowRequest(…)), reboot={}),
// not a flag (auto_start=True).
var lanCodeCall = re(`\.(\w+)\s*\(\s*(?:[bfr]?['"](\w+))?`)

// lanCodeKwarg finds a keyword argument given a message or a call.
var lanCodeKwarg = re(`[(,]\s*(\w+)\s*=\s*(?:\{|[A-Za-z_][\w.]*\()`)

// lanCodeAct says why interpreter code that names a LAN machine acts on
// it: a method named for an act (irrigate_zone, send_remote_command) or
// a call handed a bare act word ('ABORT'); "" otherwise.
func lanCodeAct(code string) (string, string) {
	host := ""
	for _, m := range lanCodeString.FindAllStringSubmatch(code, 32) {
		if h := lanMachineValue(m[1]); h != "" {
			host = h
			break
		}
	}
	if host == "" {
		return "", ""
	}
	acts, weak := opsList("lan-act-verb"), opsList("lan-act-weak-method")
	calls := lanCodeCall.FindAllStringSubmatch(code, 64)
	for _, k := range lanCodeKwarg.FindAllStringSubmatch(code, 32) {
		calls = append(calls, []string{k[0], "", "", k[1]})
	}
	for _, m := range calls {
		method := m[1]
		if method == "" {
			method = m[3] // a keyword argument: Request(dish_stow=…)
		}
		ws := methodWords(method)
		if len(ws) == 0 || weak[strings.ToLower(method)] {
			continue
		}
		reads := opsList("lan-device-read")
		if reads[ws[0]] || opsList("lan-act-read")[ws[0]] {
			continue // get_status, read_holding_registers
		}
		if m[2] != "" && (reads[strings.ToLower(m[2])] || opsList("lan-act-read")[strings.ToLower(m[2])]) {
			continue // send_command('show interfaces'): the command sent reads
		}
		if soft := opsList("lan-act-soft-noun"); m[1] != "" && soft[ws[len(ws)-1]] || len(ws) > 1 && soft[ws[1]] {
			continue // set_missing_host_key_policy, loop_start, reset_input_buffer: the client's own settings
		}
		if m[1] != "" && (acts[ws[0]] || len(ws) > 1 && (ws[0] == "turn" || ws[0] == "switch") && (ws[1] == "on" || ws[1] == "off")) {
			return host, "." + method + "(…)" // irrigate_zone, send_remote_command, turn_off: named first for the act
		}
		for _, w := range ws {
			if m[1] == "" && acts[w] {
				return host, method + "=…" // Request(dish_stow=…), Request(reboot={}): the request names the act
			}
		}
		if m[2] != "" && acts[strings.ToLower(m[2])] {
			return host, "." + method + "('" + m[2] + "')"
		}
	}
	return "", ""
}

func lanProgramActRule() Rule {
	return Rule{ID: "external.systems:lan-program-act", Mode: Ask, Tools: shellTools,
		On:   On(0).OrText(".local", ".lan", ".home", ".internal", "10.", "192.168.", "172.", "169.254.", "100."),
		Desc: "A program pointed at another machine on the local network (an option or argument that is a private address, a host under .local, .lan or .internal, a host:port) with an act in its words: an option, a subcommand, a command value or its own name that operates, writes, sets, deletes, starts, stops, aborts, pauses, applies, uploads, sends, irrigates, dispenses or reboots (mms_ctl.py --ied 10.60.1.21 --operate …, gemhost.py --tool etch-07.fab2.local:5000 s2f41 --rcmd START, a library client's .irrigate_zone(7, 30) in python -c): the equipment on the other box acts; reads (--status, --get, --list, query, dump, show), dry runs, --help and a developer's own web-dev name (myapp.local) stay allowed; the words are data (policy/remoteops.txt lan-act-*)",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				if onlyHelp(c) || e.dryRun(c) {
					continue
				}
				code := c.Payload
				if code == "" && c.Heredoc != "" && callfacts.IsInterpreter(c.Name) && !callfacts.IsShell(c.Name) && len(c.Pos) <= 1 {
					code = c.Heredoc // python3 - <<'EOF'
				}
				if code != "" && callfacts.IsInterpreter(c.Name) && !callfacts.IsShell(c.Name) {
					if h, why := lanCodeAct(code); h != "" {
						return c.Name + " code calls " + why + " on " + h + ", a machine on the local network: the equipment there acts: " + short80(c.String())
					}
					continue
				}
				name, args := lanProgramName(c)
				if name == "" || deviceVirtual(c) || lanSimName(name) {
					continue // robot_sim.py, --sim: the developer's stand-in
				}
				host := lanTarget(args)
				if host == "" && callfacts.InRemoteShell(c) {
					host = lanSSHHost(e) // ssh ops@kiln-ctl.studio.local 'kilnctl start'
				}
				if host == "" {
					continue
				}
				if why := lanProgramAct(name, args); why != "" {
					return name + " is pointed at " + host + ", a machine on the local network, and acts there (" + why + "): " + short80(c.String())
				}
			}
			return ""
		},
		Catch: []string{
			"python3 tools/iec104_ctl.py --rtu 10.4.2.17 --select-execute IOA:3001 --value 1",
			"python3 scripts/opcua_client.py --endpoint opc.tcp://mill-04.shop.lan:4840 --write ns=2;s=Spindle.Speed 1200",
			"./bin/pdu-tool --addr 192.168.50.8 outlet 4 reboot",
			"node scripts/robot.js --host ur5e-cell2.factory.local move --pose home",
			"ruby tools/kiln.rb --ip 10.9.0.44 --start --profile cone6",
			"python3 -c \"import miio; miio.Vacuum('192.168.1.77', TOKEN).set_fan_speed(60)\"",
		},
		Allow: []string{
			"python3 tools/iec104_ctl.py --rtu 10.4.2.17 --status",
			"python3 scripts/opcua_client.py --endpoint opc.tcp://mill-04.shop.lan:4840 --read ns=2;s=Spindle.Speed",
			"./bin/pdu-tool --addr 192.168.50.8 outlet list",
			"python3 tools/kiln.rb --ip 10.9.0.44 --dry-run --start",
			"python3 scripts/seed.py --host myapp.local --delete",
			"python3 -c \"import miio; print(miio.Vacuum('192.168.1.77', TOKEN).status())\"",
		}}
}

// lanArgsRead: a program's options only read (--status, --get, --list,
// --read, --dump) and none acts: pump_ctl.py --port /dev/ttyUSB0
// --status asks the pump, it does not drive it.
func lanArgsRead(args []string) bool {
	a := splitLanArgs(args)
	read := false
	for _, o := range a.opts {
		switch lanOptClass(o) {
		case "act":
			return false
		case "read":
			read = true
		}
	}
	if !read {
		return false
	}
	for _, p := range a.pos {
		if lanWordClass(p) == "act" && !strings.ContainsAny(p, "/.") {
			return false
		}
	}
	for i, v := range a.vals {
		if opsList("lan-act-carrier")[strings.TrimLeft(a.opts[i], "-")] || v != "" && opsList("lan-act-verb")[strings.ToLower(v)] {
			return false
		}
	}
	return true
}

// lanSimName: a program named for a stand-in (robot_sim, mock_plc,
// fake-reader, plc-emulator).
func lanSimName(name string) bool {
	for _, w := range wordsOf(name) {
		switch w {
		case "sim", "simulator", "simulate", "mock", "fake", "emulator", "emu", "emulate", "dummy", "stub":
			return true
		}
	}
	return false
}

// lanSSHHost is the LAN machine an ssh of the line logs in to, "" for
// none: a program run in its shell runs on that box.
func lanSSHHost(e *Env) string {
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if c.Name == "ssh" && len(c.Pos) > 0 {
			if h := lanMachineValue(c.Pos[0]); h != "" {
				return h
			}
		}
	}
	return ""
}

// lanNameReads: a program's name has a read word and no act word
// (dump_regs, plc_monitor, fetch_logs).
func lanNameReads(name string) bool {
	read := false
	for _, w := range wordsOf(name) {
		if opsList("lan-act-verb")[w] || opsList("lan-act-msg")[w] {
			return false
		}
		if opsList("lan-device-read")[w] || opsList("lan-act-read")[w] {
			read = true
		}
	}
	return read
}

// lanRangeOpt: an option that bounds what is read (--start 2024-05-01,
// --stop 10, --start=08:00) or writes a local file (--write regs.csv),
// not a command to the equipment.
func lanRangeOpt(o, v string) bool {
	w := wordsOf(o)
	if len(w) == 0 || v == "" {
		return false
	}
	switch w[0] {
	case "start", "stop", "end", "begin":
		return v[0] >= '0' && v[0] <= '9'
	case "write", "save":
		switch strings.ToLower(path.Ext(v)) {
		case ".csv", ".json", ".txt", ".log", ".xlsx", ".parquet", ".png", ".jpg", ".tsv", ".html", ".pdf", ".bin", ".dat":
			return !strings.Contains(v, ":")
		}
	}
	return false
}
