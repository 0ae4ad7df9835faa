package policy

import (
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Commands sent to network devices by channels other than a remote
// shell's payload. The device's own command line is data
// (callfacts/admin.txt's device programs: show reads, configure and
// commit change, write erase and delete flash: destroy, no login
// authentication and delete security policies switch a guard off); the
// channels that carry it are read here:
//   - Junos' cli -c "configure; delete …; commit", FRR's vtysh -c, run
//     through ssh: each ;-separated statement;
//   - an ansible network module (ios_command, junos_config,
//     cli_command…) with commands=/lines=: each command;
//   - Python's netmiko, napalm, scrapli, ncclient or paramiko calls
//     (send_config_set([...]), send_command('…'), commit_config()): each
//     string they send, and the commit or replace the method names;
//   - expect scripts' send "…".
// A lab device or inventory (lab-rtr1, inventory/lab.yml) is the
// developer's own: its changes stay allowed, what would be denied asks.

// deviceShells take device statements after -c.
var deviceShells = map[string]bool{"cli": true, "vtysh": true, "clish": true, "imish": true}

// deviceLibs mark code that talks to network devices.
var deviceLibs = []string{"netmiko", "napalm", "scrapli", "ncclient", "paramiko", "nornir", "jnpr", "pyeapi", "ConnectHandler", "get_network_driver"}

// deviceSend: a library call whose string arguments are device commands;
// deviceConfigSend: one that enters configuration mode (a change even
// when its lines name no known verb: 'line vty 0 15').
var (
	deviceSend       = re(`\b(send_config_set|send_config_from_file|send_configs?|send_commands?|send_command_timing|send_command_expect|send_multiline|send_interactive|exec_command|run_commands?|cli)\s*\(`)
	deviceMethod     = re(`\b(load_replace_candidate|load_merge_candidate|commit_config|rollback|save_config|commit|edit_config|delete_config|copy_config|discard_config|send_config_set|send_config_from_file|send_configs?)\s*\(`)
	quotedString     = re(`'([^'\\]*)'|"([^"\\]*)"`)
	expectSend       = re(`\bsend\s+(?:--\s+)?"([^"]*)"`)
	ansibleDeviceKey = re(`(?:^|[\s,{])["']?(commands|lines|command)["']?\s*[=:]\s*`)
)

// deviceVerdict is the strongest of a channel's lines: its level, kind
// and the line that decides it.
type deviceVerdict struct{ level, kind, line string }

func (v *deviceVerdict) add(level, kind, line string) {
	if level == "deny" && v.level != "deny" || level == "ask" && v.level == "" {
		*v = deviceVerdict{level, kind, line}
	}
}

func (v *deviceVerdict) judge(line string) {
	for _, s := range strings.FieldsFunc(line, func(r rune) bool { return r == ';' || r == '\n' || r == '\r' }) {
		s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), `\n`))
		if a := callfacts.DeviceLineAction(s); a != nil && a.Level != "" && (a.Kind != "secrets" || !strings.Contains(s, "|")) {
			// (show configuration | match host-name: the device's own filter keeps the secrets back)
			v.add(a.Level, a.Kind, s)
		}
	}
}

// deviceChannel judges the device commands c carries and says whether
// the target is a lab; ok false when c carries none.
func deviceChannel(e *Env, c *Cmd) (v deviceVerdict, lab, ok bool) {
	switch {
	case deviceShells[c.Name] && callfacts.InRemoteShell(c):
		for i, a := range c.Args {
			if a == "-c" && i+1 < len(c.Args) {
				v.judge(c.Args[i+1])
				ok = true
			}
		}
		return v, sshLab(e), ok
	case c.Name == "ansible":
		lines, net := ansibleDeviceLines(c)
		if !net {
			return v, false, false
		}
		for _, l := range lines {
			v.judge(l)
		}
		if len(lines) == 0 || strings.HasSuffix(ansibleModule(c), "_config") {
			v.add("ask", "change", ansibleModule(c)) // a configuration module changes the device whatever its lines
		}
		return v, ansibleLab(c), true
	case callfacts.IsInterpreter(c.Name) || c.Name == "expect":
		code := c.Payload + "\n" + c.Heredoc
		if c.Name == "expect" {
			for i, a := range c.Args {
				if a == "-c" && i+1 < len(c.Args) {
					code += "\n" + c.Args[i+1]
				}
			}
			for _, m := range expectSend.FindAllStringSubmatch(code, -1) {
				v.judge(strings.ReplaceAll(m[1], `\r`, ""))
				ok = true
			}
			return v, codeLab(code), ok
		}
		if !strings.Contains(code, "(") || !containsAny(code, deviceLibs) {
			return v, false, false
		}
		for _, loc := range deviceSend.FindAllStringSubmatchIndex(code, -1) {
			args := callArgs(code[loc[1]:])
			for _, m := range quotedString.FindAllStringSubmatch(args, -1) {
				v.judge(m[1] + m[2])
			}
		}
		for _, m := range deviceMethod.FindAllStringSubmatch(code, -1) {
			switch m[1] {
			case "load_replace_candidate", "copy_config":
				v.add("deny", "cut", m[1]) // the whole configuration replaced
			case "delete_config":
				v.add("deny", "destroy", m[1])
			case "discard_config":
			default:
				v.add("ask", "change", m[1])
			}
		}
		return v, codeLab(code), true
	}
	return v, false, false
}

// callArgs is the text of a call's arguments, from just after its
// opening parenthesis to the one that closes it.
func callArgs(s string) string {
	depth := 1
	for i, r := range s {
		switch r {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth--; depth == 0 {
				return s[:i]
			}
		}
	}
	return s
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// ansibleDeviceLines: the device commands of an ad-hoc ansible call to a
// network module (cisco.ios.ios_command, junos_config, cli_command), and
// whether the module is one.
func ansibleDeviceLines(c *Cmd) ([]string, bool) {
	m := path.Ext("." + ansibleModule(c))[1:]
	if !strings.HasSuffix(m, "_command") && !strings.HasSuffix(m, "_commands") && !strings.HasSuffix(m, "_config") || m == "command" {
		return nil, false
	}
	if !strings.HasPrefix(m, "cli_") && !strings.HasPrefix(m, "net_") && !strings.Contains(m, "os_") && !strings.HasPrefix(m, "eos_") &&
		!strings.HasPrefix(m, "junos_") && !strings.HasPrefix(m, "routeros_") && !strings.HasPrefix(m, "fortios_") && !strings.HasPrefix(m, "panos_") &&
		!strings.HasPrefix(m, "vyos_") && !strings.HasPrefix(m, "edgeos_") && !strings.HasPrefix(m, "aruba") && !strings.HasPrefix(m, "dellos") {
		return nil, false // ios_, nxos_, iosxr_, sros_ and the like match os_
	}
	var lines []string
	for i, a := range c.Args {
		if a != "-a" && a != "--args" || i+1 >= len(c.Args) {
			continue
		}
		v := c.Args[i+1]
		for _, loc := range ansibleDeviceKey.FindAllStringIndex(v, -1) {
			rest := v[loc[1]:]
			if strings.HasPrefix(rest, "[") {
				rest = callArgs(rest[1:])
			} else if q := rest[:min(1, len(rest))]; q == "'" || q == `"` {
				if j := strings.Index(rest[1:], q); j >= 0 {
					rest = rest[1 : j+1]
				}
			} else if j := strings.IndexAny(rest, " \t"); j >= 0 && !strings.Contains(rest[:j], ",") {
				rest = rest[:j]
			}
			if qs := quotedString.FindAllStringSubmatch(rest, -1); len(qs) > 0 && strings.HasPrefix(strings.TrimSpace(rest), qs[0][0]) {
				for _, m := range qs {
					lines = append(lines, m[1]+m[2])
				}
				continue
			}
			lines = append(lines, strings.Split(rest, ",")...)
		}
	}
	return lines, true
}

// ansibleLab: an ansible run whose inventories (or, with none, its host
// pattern) are named for a lab, a test or this machine (-i
// inventory/lab.yml, -i localhost,) and whose --limit names no other.
func ansibleLab(c *Cmd) bool {
	inv, lab := false, true
	for i, a := range c.Args {
		v := ""
		switch {
		case (a == "-i" || a == "--inventory" || a == "--inventory-file" || a == "-l" || a == "--limit") && i+1 < len(c.Args):
			v = c.Args[i+1]
		case strings.HasPrefix(a, "--inventory=") || strings.HasPrefix(a, "--limit="):
			_, v, _ = strings.Cut(a, "=")
		default:
			continue
		}
		inv = inv || a == "-i" || strings.HasPrefix(a, "--inventory")
		if !labName(v) {
			lab = false
		}
	}
	if !inv {
		return c.Name == "ansible" && len(c.Pos) > 0 && labName(c.Pos[0])
	}
	return lab
}

// labName: an inventory file or host list named for a lab, a test, dev
// or this machine (inventory/lab.yml, hosts-dev.ini, localhost,), or an
// inventory file in a folder so named (inventories/dev/hosts.yml; only
// a relative path's: /home/dev/… names a user).
func labName(v string) bool {
	for _, h := range strings.Split(strings.TrimSuffix(v, ","), ",") {
		b := strings.TrimSuffix(path.Base(h), path.Ext(h))
		dir := ""
		if !strings.HasPrefix(h, "/") && !strings.HasPrefix(h, "~") {
			dir = path.Base(path.Dir(h))
		}
		if !callfacts.LabTarget(b, nil) && !strings.EqualFold(b, "local") && (dir == "." || dir == "" || !callfacts.LabTarget(dir, nil)) {
			return false
		}
	}
	return v != ""
}

// codeLab: code that connects to a device named for a lab (host=
// 'lab-rtr1', get_network_driver('ios')('clab-leaf1', …)).
func codeLab(code string) bool {
	for _, m := range quotedString.FindAllStringSubmatch(code, -1) {
		s := m[1] + m[2]
		if !strings.ContainsAny(s, " /=") && strings.ContainsAny(s, ".-") && callfacts.LabTarget(s, nil) {
			return true
		}
	}
	return false
}

// ansibleDeviceReads: an ad-hoc network module whose every command only
// reads (show, display, ping): nothing on the devices changes.
func ansibleDeviceReads(c *Cmd) bool {
	lines, net := ansibleDeviceLines(c)
	if !net || len(lines) == 0 || strings.HasSuffix(ansibleModule(c), "_config") {
		return false
	}
	var v deviceVerdict
	for _, l := range lines {
		v.judge(l)
		if f := strings.Fields(l); len(f) > 0 && !deviceReadWord[strings.ToLower(f[0])] {
			return false
		}
	}
	return v.level == ""
}

// deviceReadWord: the words that open a device command that only reads.
var deviceReadWord = map[string]bool{"show": true, "sh": true, "display": true, "dis": true, "get": true, "ping": true, "traceroute": true, "dir": true, "more": true, "terminal": true}

var net14DeviceNames = []string{"cli", "vtysh", "clish", "imish", "ansible", "expect", "python", "python3", "python2", "ipython", "pypy3", "uv", "poetry"}

func netDeviceRules() []Rule {
	fire := func(want string) func(e *Env, c *Cmd) string {
		return func(e *Env, c *Cmd) string {
			if onlyHelp(c) || c.Name == "ansible" && c.Has("--check", "-C") {
				return ""
			}
			v, lab, ok := deviceChannel(e, c)
			if !ok || v.level == "" {
				return ""
			}
			level := v.level
			if lab {
				if level == "ask" {
					return "" // a lab device's change is the developer's own
				}
				level = "ask"
			}
			if level != want {
				return ""
			}
			where := "a network device"
			if lab {
				where = "a lab device"
			}
			return c.Name + " sends " + where + " a command that " + map[string]string{"change": "changes it", "flash": "rewrites its firmware",
				"secrets": "prints its configuration, with its secrets", "destroy": "erases its file systems or configuration",
				"off": "switches its login, ACL, security policy or logging off", "cut": "replaces its whole configuration or cuts its link",
				"leak": "sends its configuration away", "unknown": "warden does not know"}[v.kind] + " (" + v.line + "): " + c.String()
		}
	}
	return []Rule{
		cmdRule("external.systems:device-destroy", Deny, "A network device's file systems or configuration erased (delete /force /recursive flash:, write erase, request system zeroize), its login authentication, ACLs, security policies, AAA or remote logging removed (no login authentication, delete security policies), or its whole configuration replaced, sent by ansible's network modules, netmiko/napalm/scrapli code, Junos' cli -c or expect; a lab device asks; the device commands are data (callfacts/admin.txt)", net14DeviceNames,
			fire("deny"),
			[]string{`ansible core -i inventory/prod.yml -m cisco.ios.ios_command -a "commands='delete /force /recursive flash:'"`,
				`ssh fw1.example.net 'cli -c "configure; delete security policies; commit and-quit"'`,
				`python3 -c "from netmiko import ConnectHandler as C; c=C(host='edge1.example.net'); c.send_config_set(['line vty 0 4','no login authentication'])"`,
				`ansible edge -m arista.eos.eos_config -a "lines='no aaa authorization exec default local'"`},
			[]string{`ansible core -i inventory/prod.yml -m cisco.ios.ios_command -a "commands='show flash:'"`, `ssh lab-srx1 'cli -c "configure; delete security policies; commit"'`,
				`python3 -c "from netmiko import ConnectHandler as C; c=C(host='edge1.example.net'); print(c.send_command('show ip int brief'))"`}),
		cmdRule("external.systems:device-change", Ask, "A network device's configuration changed, committed, rolled back or the device reloaded (configure, commit, no …, set …, reload, copy … flash:), sent by ansible's network modules (ios_config lines=, junos_command commands=), netmiko/napalm/scrapli code (send_config_set, commit_config, load_merge_candidate), Junos' cli -c or expect; a lab device or inventory is the developer's own; show, display and ping read; the device commands are data (callfacts/admin.txt)", net14DeviceNames,
			fire("ask"),
			[]string{`python3 -c "from napalm import get_network_driver as g; d=g('ios')('dist1.example.net','u','p'); d.open(); d.load_merge_candidate(filename='x.cfg'); d.commit_config()"`,
				`ansible core -m junipernetworks.junos.junos_command -a "commands='request system reboot'"`,
				`ssh fw1.example.net 'cli -c "configure; set system host-name fw1; commit"'`, `ssh lab-srx1 'cli -c "configure; delete security policies; commit"'`},
			[]string{`ansible core -m junipernetworks.junos.junos_command -a "commands='show system commit'"`, `ssh fw1.example.net 'cli -c "show configuration | display set | match host-name"'`,
				`ansible lab_core -i inventory/lab.yml -m cisco.ios.ios_config -a "lines='hostname r1'"`, `python3 -c "import paramiko; print(1)"`}),
	}
}
