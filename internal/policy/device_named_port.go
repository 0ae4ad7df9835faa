package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// s26-device: a device named on the line and told to act, whatever the
// program. The other device rules read a program by its name (a table
// of programmers and their write verbs, callfacts/admin.txt), by a verb
// word (device_act_default.go) or a script's name (device_script_port.go).
// Programs of fields nobody listed still show two things on their line:
//
//   - the device: a device node wired to this machine (/dev/ttyUSB1,
//     /dev/cu.usbserial-…, /dev/spidev0.0) anywhere among the arguments,
//     or, as the value of an option that names a port or a device
//     (--port, -p, --master, -P, --device, --serial…), a Windows COM port
//     or a variable named for one ($DFU_PORT, $SERIAL_DEV, ${ESPPORT});
//   - an act: commands typed into the program's input (a here-document,
//     a file the line writes, a pipe the line does not show), commands
//     handed to it by an option (--cmd="script /tmp/p.txt", --script,
//     --exec, --batch), an image or a job it sends (fw.hex, app.uf2,
//     dfu.zip, job.gcode, part.nc, card.mfd), or an act word in its
//     first positionals (send, write, flash, set, on, off…).
//
// Together they ask, even for a script named for reading (reader_console
// .py fed "SET BONUS 20"): the device — a mill, a door reader, a drone's
// flight controller — acts on what it is sent. Reads stay allowed: a
// device named with nothing sent (a monitor, a logger, a terminal left
// interactive), queries fed to it (lines ending in ?, status, show), an
// output file (-o dump.bin), --help, dry runs and virtual targets (a pty,
// vcan0, --sim).
//
// Three more forms reach a device the same way:
//   - a container handed a device node (docker run --device /dev/ttyUSB0
//     img send job.nc) whose command acts;
//   - raw bytes to a device's socket (printf '\x81\x01\x04…' | nc -q1
//     192.168.1.88 5678): binary control codes, as a camera's VISCA, a
//     PLC's or a relay board's protocol takes them; this machine's own
//     ports stay allowed;
//   - a file deleted or renamed on a machine's FTP server by curl's
//     quote commands (curl ftp://10.2.0.41/PATTERNS/ -Q 'DELE old.sin').

// devicePortOpts are options whose value names the device a program
// talks to.
var devicePortOpts = map[string]bool{"--port": true, "-p": true, "--master": true, "-P": true, "--device": true, "-d": true, "--dev": true, "-D": true,
	"--serial": true, "--serial-port": true, "--serialport": true, "--tty": true, "--uart": true, "--com": true, "--comport": true, "--upload-port": true,
	"--connect": true, "--conn": true, "--link": true, "--interface": true, "--target-port": true, "--baudport": true, "-port": true, "-device": true}

// deviceVarWords in a variable's name say it holds a device's port.
var deviceVarWords = []string{"TTY", "SERIAL", "UART", "DFU", "COMPORT", "COM_PORT", "ESPPORT", "UPLOAD_PORT", "DEVICE_PORT", "DEV_PORT", "BOARD_PORT", "PORT_DEV", "SERIAL_DEV", "USB_DEV"}

var comPort = re(`^(?i)(com[0-9]{1,3}|\\\\\.\\com[0-9]{1,3})$`)

// deviceVarValue: v is a variable named for a device's port.
func deviceVarValue(v string) bool {
	if !strings.HasPrefix(v, "$") {
		return false
	}
	n := strings.ToUpper(strings.Trim(v, "${}"))
	for _, w := range deviceVarWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// devOptValues yields each option of args with its value (--k=v, or the
// next argument), and each other argument with an empty option.
func devOptValues(args []string, f func(opt, val string) bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "-") {
			if f(k, strings.Trim(v, `"'`)) {
				return
			}
			continue
		}
		if strings.HasPrefix(a, "-") && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			if f(a, strings.Trim(args[i+1], `"'`)) {
				return
			}
			i++
			continue
		}
		if f("", strings.Trim(a, `"'`)) {
			return
		}
	}
}

// namedDevice is the device c's arguments name ("" for none).
func namedDevice(args []string) string {
	dev := ""
	devOptValues(args, func(opt, v string) bool {
		p := v
		if i := strings.Index(p, "/dev/"); i >= 0 {
			p = p[i:]
		}
		p, _, _ = strings.Cut(p, ",")
		switch {
		case hardwareNode(p):
			dev = p
		case devicePortOpts[opt] && (comPort.MatchString(v) || deviceVarValue(v)):
			dev = v
		}
		return dev != ""
	})
	return dev
}

// deviceCmdOpts hand a program the commands it sends.
var deviceCmdOpts = map[string]bool{"--cmd": true, "--cmds": true, "--command": true, "--commands": true, "--script": true, "--exec": true, "--execute": true,
	"--batch": true, "--run-script": true, "--send": true, "--write": true, "--flash": true, "--program": true, "--upload": true, "--erase": true, "--set": true,
	"--firmware": true, "--image": true, "-pkg": true, "--pkg": true, "--package": true}

// deviceOutOpts name a file the program writes (its capture), not one
// it sends.
var deviceOutOpts = map[string]bool{"-o": true, "--output": true, "--out": true, "--outfile": true, "--log": true, "--logfile": true, "-l": true, "--save": true,
	"--dump": true, "--capture": true, "--record": true, "-w": true, "--csv": true}

// devicePayloadExts are images and jobs a program sends to a device.
var devicePayloadExts = []string{".hex", ".ihex", ".bin", ".uf2", ".elf", ".dfu", ".fw", ".img", ".srec", ".s19", ".mot", ".gcode", ".gco", ".nc", ".ngc", ".tap",
	".mfd", ".apj", ".px4", ".jed", ".svf", ".bit", ".sin", ".pkg", ".zip"}

func devicePayload(v string) bool {
	l := strings.ToLower(v)
	for _, x := range devicePayloadExts {
		if strings.HasSuffix(l, x) {
			return true
		}
	}
	return false
}

// deviceLineAct says how c's line makes the named device act ("" for a
// read). args are the program's own arguments.
func deviceLineAct(c *Cmd, args []string) string {
	{
		if c.Heredoc != "" {
			if l := devicePortText(c.Heredoc); l != "" {
				return "is fed the command \"" + l + "\""
			}
		} else if strings.HasPrefix(c.Stdin, "<") || strings.HasPrefix(c.Stdin, "|") {
			if f := strings.TrimSpace(strings.TrimLeft(c.Stdin, "<|")); f != "/dev/null" && !hardwareNode(f) {
				return "is fed " + f + " on its input, text the line does not show"
			}
		}
	}
	why := ""
	devOptValues(args, func(opt, v string) bool {
		switch {
		case deviceCmdOpts[opt] && v != "":
			if f := strings.Fields(strings.ToLower(v)); len(f) > 0 && deviceReadVerbs[f[0]] {
				return false // --cmd="status": a query
			}
			why = "is handed " + opt + " " + v
		case opt == "" && devicePayload(v) || opt != "" && !deviceOutOpts[opt] && !devicePortOpts[opt] && devicePayload(v):
			why = "sends " + v
		}
		return why != ""
	})
	return why
}

// devicePlainTools are file, terminal and port-setting tools: other
// rules read them (a redirect into the node, a terminal fed text below).
var devicePlainTools = map[string]bool{"cat": true, "echo": true, "printf": true, "ls": true, "stty": true, "setserial": true, "udevadm": true, "chmod": true, "chown": true,
	"fuser": true, "lsof": true, "dmesg": true, "journalctl": true, "grep": true, "tee": true, "dd": true, "file": true, "stat": true, "test": true, "[": true, "readlink": true,
	"realpath": true, "head": true, "tail": true, "hexdump": true, "xxd": true, "od": true, "strace": true, "sudo": true, "env": true, "timeout": true, "nohup": true, "watch": true,
	"docker": true, "podman": true, "nerdctl": true, "ssh": true, "mount": true, "umount": true, "blkid": true, "lsblk": true, "usermod": true, "gpasswd": true, "socat": true}

// namedDeviceAct: c names a device and its line makes it act.
func namedDeviceAct(c *Cmd) string {
	if c.Name == "" || devicePlainTools[c.Name] || c.DryRun() || c.Has("--help", "-h") || deviceVirtual(c) || callfacts.AdminListed(c.Name) {
		return ""
	}
	name, args := c.Name, c.Args
	if callfacts.IsInterpreter(c.Name) || c.Name == "bash" || c.Name == "sh" || c.Name == "zsh" {
		n, a, _ := deviceToolName(c)
		if n == "" {
			return "" // python3 - <<EOF, python3 -c: code, read by the interpreter rules
		}
		name, args = n, a[1:]
	}
	dev := namedDevice(args)
	if dev == "" {
		return ""
	}
	why := deviceLineAct(c, args)
	if why == "" {
		pos := []string{}
		devOptValues(args, func(opt, v string) bool {
			if opt == "" {
				pos = append(pos, v)
			}
			return len(pos) >= 2
		})
		for _, p := range pos {
			l := strings.ToLower(p)
			if deviceReadVerbs[l] {
				break
			}
			if deviceActWords[l] && l != "run" && l != "home" && l != "load" && l != "cmd" {
				why = "is told to " + p
				break
			}
		}
	}
	if why == "" {
		return ""
	}
	return name + " " + why + " on " + dev + ", a physical device: it acts on it: " + c.String()
}

// containerDevice is the device node a docker/podman run line hands its
// container ("" for none).
func containerDevice(e *Env, c *Cmd) (string, *Cmd) {
	if len(c.Wrappers) == 0 {
		return "", nil
	}
	w := c.Wrappers[len(c.Wrappers)-1]
	if w != "docker run" && w != "podman run" && w != "nerdctl run" {
		return "", nil
	}
	for i := range e.F.Commands {
		d := &e.F.Commands[i]
		if d == c || d.Name != strings.Fields(w)[0] {
			continue
		}
		dev := ""
		devOptValues(d.Args, func(opt, v string) bool {
			if opt == "--device" {
				if n, _, _ := strings.Cut(v, ":"); hardwareNode(n) {
					dev = n
				}
			}
			return dev != ""
		})
		if dev != "" {
			return dev, d
		}
	}
	return "", nil
}

// containerDeviceSend: the container handed a device node runs a
// command that acts (send, flash, write…) or sends a job to it.
func containerDeviceSend(e *Env, c *Cmd) string {
	dev, d := containerDevice(e, c)
	if dev == "" || c.Has("--help", "-h") || c.DryRun() {
		return ""
	}
	words := append([]string{c.Name}, c.Pos...)
	for i, w := range words {
		if i >= 3 {
			break
		}
		l := strings.ToLower(w)
		if deviceReadVerbs[l] {
			return ""
		}
		if deviceActWords[l] || l == "stream" || l == "print" {
			return "the container gets " + dev + " and runs " + c.Name + " " + strings.Join(c.Args, " ") + ": it acts on the device: " + d.String()
		}
	}
	return ""
}

// rawDeviceBytes: binary control codes piped to a socket on another
// machine.
func rawDeviceBytes(e *Env, c *Cmd) string {
	switch c.Name {
	case "nc", "ncat", "netcat", "socat":
	default:
		return ""
	}
	if c.Heredoc == "" || !binaryText(c.Heredoc) {
		return ""
	}
	h := socketMessageHost(c)
	if h == "" || isLocalEndpoint(h) || replyDumped(e, c) {
		return ""
	}
	return c.Name + " sends raw control bytes to " + h + ", a device's socket: the device acts on them: " + c.String()
}

// binaryText: s holds control bytes, or bytes that are not text, beyond
// a line's end or a closing NUL (a JSON-RPC message ended by \0 is text).
func binaryText(s string) bool {
	s = strings.TrimRight(s, "\x00\r\n")
	n := 0
	for _, r := range s {
		if r == '\uFFFD' || r < 0x20 && r != '\n' && r != '\r' && r != '\t' || r == 0x7f {
			n++
		}
	}
	return n >= 2
}

// replyDumped: the device's reply is piped on into a hex dumper (| xxd,
// | hexdump, | od): the bytes sent are an inquiry whose answer the line
// reads (a camera's VISCA 81 09 … inquiry), not a command.
func replyDumped(e *Env, c *Cmd) bool {
	for i := range e.F.Commands {
		d := &e.F.Commands[i]
		if d == c || d.Name != "xxd" && d.Name != "hexdump" && d.Name != "od" {
			continue
		}
		for _, u := range d.Upstream {
			if u == c.Name {
				return true
			}
		}
	}
	return false
}

// ftpQuoteChange: curl's quote commands that delete or rename files on
// an FTP server (DELE, RMD, RNFR/RNTO, SITE CHMOD).
func ftpQuoteChange(c *Cmd) string {
	if c.Name != "curl" {
		return ""
	}
	why := ""
	devOptValues(c.Args, func(opt, v string) bool {
		if opt != "-Q" && opt != "--quote" {
			return false
		}
		f := strings.Fields(strings.ToUpper(strings.TrimLeft(v, "+-*")))
		if len(f) > 0 {
			switch f[0] {
			case "DELE", "RMD", "XRMD", "RNFR", "RNTO", "SITE", "MDTM":
				if f[0] != "MDTM" {
					why = v
				}
			}
		}
		return why != ""
	})
	if why == "" {
		return ""
	}
	return "curl runs the FTP command " + why + " on the server: a file there is deleted or changed: " + c.String()
}

func namedDevicePortRule() Rule {
	return Rule{ID: "external.systems:device-named-act", Mode: Ask, Tools: shellTools,
		On:   On(0).OrText("/dev/", "--device", "PORT", "TTY", "SERIAL", "UART", "COM", "-Q", "--quote", "nc ", "socat ", "ncat ", "netcat "),
		Desc: "A physical device named on the line and told to act, whatever the program: a device node (/dev/ttyUSB1, /dev/cu.…), a COM port or a variable named for a port ($DFU_PORT) given to --port, -p, --master, --device…, with commands fed on its input or by an option (--cmd, --script), an image or a job it sends (fw.hex, job.nc, dfu.zip, card.mfd) or an act word (send, write, set, on, off); a container handed a device node whose command acts; raw control bytes piped to a device's socket; files deleted on an FTP server by curl -Q 'DELE …'. A device named with nothing sent (monitors, loggers, terminals), queries, output files, --help, dry runs and virtual targets (a pty, vcan0, --sim) stay allowed",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				if why := containerDeviceSend(e, c); why != "" {
					return why
				}
				if why := rawDeviceBytes(e, c); why != "" {
					return why
				}
				if why := ftpQuoteChange(c); why != "" {
					return why
				}
				if why := namedDeviceAct(c); why != "" {
					return why
				}
			}
			return ""
		},
		Catch: []string{"python3 tools/reader_console.py --port /dev/ttyUSB1 < cmds.txt", "kilnctl --port COM4 --cmd 'ramp 1200'", "labelflash -p \"$SERIAL_PORT\" fw.hex",
			"docker run --rm --device /dev/ttyACM0 cutter:2 send /jobs/a.nc", "printf '\\x02\\x10\\x01\\x03' | nc 10.0.0.40 4001", "curl -Q 'DELE a.sin' ftp://10.0.0.9/"},
		Allow: []string{"python3 tools/reader_console.py --port /dev/ttyUSB1", "kilnctl --port COM4 --cmd status", "labelflash -p \"$SERIAL_PORT\" --help",
			"docker run --rm --device /dev/ttyACM0 cutter:2 status", "printf '\\x02\\x10\\x01\\x03' | nc localhost 4001", "curl -Q 'PWD' ftp://10.0.0.9/", "python3 log.py --port /dev/ttyUSB0 -o dump.bin"},
	}
}
