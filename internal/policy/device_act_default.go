package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// s23-device: the default for a physical device no table lists. A
// program of some field nobody named (a lab's pump CLI, a stage's
// lighting tool, a relay board's utility) is read by what its line does,
// not by its name: the line names a device wired to this machine (a
// serial port, an SPI or I2C bus, a GPIO chip, a HID or USB printer
// node) or the program's own name says it drives a bus or a pin (gpio,
// i2c, modbus, dmx, mqtt, relay, servo…), and its verb acts (set, write,
// send, on, off, toggle, move, fire, reset, flash…). Such a command
// moves a motor, switches a heater or a lock, or rewrites a board:
// asks. Its reads (get, read, status, list, monitor…), --help, a dry
// run and virtual or simulated targets (vcan0, /dev/pts/N, a pty pair
// the line opens, --sim) stay allowed. Programs of the admin table
// (callfacts/admin.txt) are judged by their own lines there.
//
// Two forms without a verb word act the same way: text fed to a serial
// port through socat (echo 'RELAY 3 OFF' | socat - /dev/ttyACM2), unless
// every line is a query; and a firmware image copied onto a board's
// USB bootloader drive (cp blink.uf2 /media/dev/RPI-RP2/, a micro:bit's
// MICROBIT, an mbed board's DAPLINK or NODE_… drive, CircuitPython's
// CIRCUITPY, where code.py runs as soon as it lands).

// deviceNodePrefixes are device nodes of hardware wired to this machine
// (not /dev/tty, /dev/null, a pty, a disk: other rules read those).
var deviceNodePrefixes = []string{"/dev/ttyUSB", "/dev/ttyACM", "/dev/ttyS", "/dev/ttyAMA", "/dev/ttyTHS", "/dev/ttymxc", "/dev/ttyO", "/dev/cu.", "/dev/tty.usb",
	"/dev/serial/", "/dev/rfcomm", "/dev/spidev", "/dev/i2c-", "/dev/gpiochip", "/dev/hidraw", "/dev/usb/", "/dev/lp", "/dev/usbtmc", "/dev/cdc-wdm", "/dev/midi", "/dev/snd/midi", "/dev/uinput", "/dev/pwm"}

func hardwareNode(p string) bool {
	for _, pre := range deviceNodePrefixes {
		if strings.HasPrefix(p, pre) {
			return true
		}
	}
	return false
}

// deviceStems in a program's name say it drives a bus, a pin or an
// actuator. Substrings of the lower-cased name: each is rare enough in
// other programs' names (ble, ups, hid, light are not here: table,
// backups, hidden, highlight).
var deviceStems = []string{"gpio", "i2c", "spidev", "pwm", "relay", "uart", "modbus", "knx", "dmx", "artnet", "sacn", "mqtt", "coap", "zigbee", "zwave", "gatt",
	"hidapi", "midi", "visca", "ptz", "servo", "stepper", "valve", "pdu", "plc", "cnc", "grbl", "gcode", "scpi", "usbtmc", "bacnet", "dali", "lirc", "onvif"}

// deviceActWords are verbs that act on a device.
var deviceActWords = map[string]bool{"set": true, "write": true, "send": true, "put": true, "pub": true, "publish": true, "toggle": true, "on": true, "off": true,
	"pulse": true, "power": true, "poweroff": true, "poweron": true, "cycle": true, "reset": true, "reboot": true, "restart": true, "shutdown": true,
	"flash": true, "upload": true, "program": true, "erase": true, "burn": true, "fire": true, "trigger": true, "move": true, "goto": true, "home": true,
	"park": true, "unpark": true, "open": true, "close": true, "lock": true, "unlock": true, "arm": true, "disarm": true, "start": true, "stop": true,
	"enable": true, "disable": true, "tx": true, "transmit": true, "dispense": true, "actuate": true, "jog": true, "spin": true, "heat": true,
	"cmd": true, "command": true, "exec": true, "run": true, "play": true, "blink": true, "beep": true, "drive": true, "rotate": true, "tilt": true, "pan": true, "zoom": true, "preset": true, "recall": true, "load": true}

// deviceReadVerbs in the verb slot make the line a read.
var deviceReadVerbs = map[string]bool{"get": true, "read": true, "dump": true, "info": true, "list": true, "ls": true, "show": true, "status": true, "detect": true,
	"scan": true, "monitor": true, "sub": true, "subscribe": true, "listen": true, "watch": true, "probe": true, "query": true, "version": true, "help": true,
	"discover": true, "log": true, "sniff": true, "capture": true, "stat": true, "stats": true, "check": true, "test": true, "ping": true, "id": true}

// deviceVirtual: the target is the developer's own stand-in.
func deviceVirtual(c *Cmd) bool {
	for _, a := range c.Args {
		l := strings.ToLower(a)
		if strings.HasPrefix(l, "vcan") || strings.HasPrefix(l, "vxcan") || strings.HasPrefix(l, "/dev/pts/") || strings.HasPrefix(l, "/tmp/") ||
			l == "--sim" || l == "--simulate" || l == "--simulator" || l == "--emulator" || l == "--dummy" || l == "--mock" || l == "--virtual" || l == "sim" || l == "dummy" {
			return true
		}
	}
	return false
}

// deviceTarget: why c aims at a physical device ("" for none): a
// hardware node among its arguments or option values, or a stem of its
// name.
func deviceTarget(c *Cmd) string {
	for _, a := range c.Args {
		v := a
		if k, val, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "-") {
			v = val
		}
		v = strings.Trim(v, `"'`)
		if i := strings.Index(v, "/dev/"); i >= 0 {
			v = v[i:]
		}
		if hardwareNode(v) {
			v, _, _ = strings.Cut(v, ",") // socat's /dev/ttyUSB0,b9600,raw
			return v
		}
	}
	n := strings.ToLower(c.Name)
	for _, s := range deviceStems {
		if strings.Contains(n, s) {
			return "a " + s + " tool"
		}
	}
	return ""
}

// deviceVerb is the acting verb of c ("" for none): a program named for
// the act (gpioset, i2cset, ola_set_dmx, canwrite), its first two
// positionals, or an option named for it (--write, --set-value).
func deviceVerb(c *Cmd) string {
	name := wordsOf(c.Name)
	for _, w := range name {
		if deviceActWords[w] && w != "home" && w != "run" {
			return c.Name
		}
	}
	n := strings.ToLower(c.Name)
	for _, suf := range []string{"set", "write", "send", "pub", "put"} {
		if strings.HasSuffix(n, suf) && len(n) > len(suf)+2 {
			return c.Name
		}
	}
	for i, p := range c.Pos {
		if i >= 2 {
			break
		}
		ws := wordsOf(p)
		if len(ws) == 0 || strings.ContainsAny(p, "/.") {
			continue
		}
		if deviceReadVerbs[ws[0]] {
			return ""
		}
		if deviceActWords[ws[0]] || strings.HasPrefix(ws[0], "set") && len(ws[0]) <= 8 {
			return p
		}
	}
	for _, a := range c.Args {
		if !strings.HasPrefix(a, "--") {
			continue
		}
		k, _, _ := strings.Cut(a, "=")
		ws := wordsOf(k)
		if len(ws) > 0 && (ws[0] == "write" || ws[0] == "set" || ws[0] == "send" || ws[0] == "flash" || ws[0] == "upload" || ws[0] == "program" || ws[0] == "erase") {
			return k
		}
	}
	return ""
}

// uf2Volumes are the drives a board's USB bootloader mounts.
var uf2Volumes = []string{"rpi-rp2", "rp2350", "microbit", "daplink", "node_", "circuitpy", "maintenance", "featherboot", "itsybooot", "metroboot", "nrf52boot", "teensy"}

// bootloaderCopy: c copies a firmware image onto a board's bootloader
// drive; the drive, or "".
func bootloaderCopy(c *Cmd) string {
	if c.Name != "cp" && c.Name != "mv" && c.Name != "rsync" && c.Name != "install" || len(c.Pos) < 2 {
		return ""
	}
	dst := c.Pos[len(c.Pos)-1]
	if !strings.HasPrefix(dst, "/media/") && !strings.HasPrefix(dst, "/run/media/") && !strings.HasPrefix(dst, "/Volumes/") && !strings.HasPrefix(dst, "/mnt/") {
		return ""
	}
	ld := strings.ToLower(dst)
	for _, v := range uf2Volumes {
		if strings.Contains(ld, "/"+v) {
			return dst
		}
	}
	for _, s := range c.Pos[:len(c.Pos)-1] {
		if strings.HasSuffix(strings.ToLower(s), ".uf2") {
			return dst
		}
	}
	return ""
}

func deviceActDefaultRule() Rule {
	return Rule{ID: "external.systems:device-act-default", Mode: Ask, Tools: shellTools,
		On:   On(0).OrText(deviceTriggerText()...),
		Desc: "A physical device no table lists, read by what the line does: it names a device wired to this machine (a serial port, an SPI or I2C bus, a GPIO chip, a HID or USB printer node) or a program named for a bus or a pin (gpio, i2c, modbus, dmx, mqtt, relay, servo…), and its verb acts (set, write, send, on, off, toggle, move, fire, reset, flash…); text fed to a serial port through socat; a firmware image copied onto a board's bootloader drive (RPI-RP2, MICROBIT, DAPLINK, CIRCUITPY). Reads, --help, dry runs and virtual targets (vcan0, a pty, --sim) stay allowed",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				if why := containerDeviceAct(e, c); why != "" {
					return why // s24-device: a device CLI run from an image
				}
				if d := bootloaderCopy(c); d != "" {
					return c.Name + " copies a firmware image onto a board's bootloader drive " + d + ": the board is rewritten and restarts: " + c.String()
				}
				if c.Name == "cargo" && len(c.Pos) > 0 && (c.Pos[0] == "flash" || c.Pos[0] == "embed") && !c.Has("--help", "-h", "--list-chips", "--list-probes") {
					return "cargo " + c.Pos[0] + " (probe-rs) writes the firmware of the board on the debug probe: " + c.String()
				}
				if why := boardFileWrite(e, c); why != "" {
					return why
				}
				if c.Name == "socat" {
					t := deviceTarget(c)
					if strings.HasPrefix(t, "/dev/") && !deviceVirtual(c) {
						if l := devicePortText(c.Heredoc); l != "" {
							return "socat types \"" + l + "\" into the serial port " + t + ": the device behind it acts on it: " + c.String()
						}
					}
					continue
				}
				if c.Name == "" || callfacts.AdminListed(c.Name) || c.DryRun() || c.Has("--help", "-h") || len(c.Args) == 0 {
					continue
				}
				if strings.Contains(c.Name, "/") || strings.HasSuffix(c.Name, ".py") || strings.HasSuffix(c.Name, ".sh") {
					continue // a script: external.systems:unread-script-target reads scripts handed a port
				}
				switch c.Name {
				case "python", "python3", "node", "ruby", "perl", "bash", "sh", "sudo", "env", "timeout", "watch", "ssh", "docker", "podman", "cat", "echo", "printf", "ls", "stty", "udevadm", "chmod", "chown", "setserial", "fuser", "lsof", "dmesg", "journalctl", "grep", "tee", "dd", "screen", "tmux", "minicom", "picocom", "cu", "tio", "socat":
					continue // interpreters, wrappers, terminals and file tools: other rules read them
				}
				t := deviceTarget(c)
				if deviceVirtual(c) {
					continue
				}
				if t == "" {
					if v := deviceOnlyVerb(c); v != "" {
						return c.Name + " " + v + ": a verb that only a physical device takes (switched, aimed, armed, dispensed), of a program warden has no table for: " + c.String()
					}
					continue
				}
				if v := deviceVerb(c); v != "" {
					return c.Name + " " + v + " acts on " + t + ", a physical device: " + c.String()
				}
			}
			return ""
		},
		Catch: []string{"relayctl --port /dev/ttyUSB3 on 2", "gpio-ctl set 17 1", "echo 'RELAY 3 OFF' | socat - /dev/ttyACM2,b115200", "cp build/blink.uf2 /media/dev/RPI-RP2/",
			"dmxctl send --universe 1 255 0 0", "pumpctl -d /dev/serial/by-id/usb-FTDI_pump-if00 start --rate 5", "sonos Lobby volume 85", "huectl light 3 off", "feeder dispense 2", "cargo flash --release --chip nRF52840_xxAA"},
		Allow: []string{"relayctl --port /dev/ttyUSB3 status", "gpio-ctl get 17", "echo '*IDN?' | socat - /dev/ttyACM2,b115200", "cp build/blink.uf2 dist/", "dmxctl list", "sonos Lobby status", "huectl light 3 get", "poetry lock", "git lfs lock big.psd",
			"relayctl --port /dev/pts/4 on 2", "pumpctl -d /dev/ttyUSB0 start --help", "cargo build --release"},
	}
}

// boardFileWrite: a file copied onto a MicroPython board (mpremote cp
// main.py :main.py, mpremote fs cp x :, the destination on the board
// starts with ":"), or SEGGER's J-Link commander run on a command file
// the line does not write (its commands, most often loadfile and erase,
// are not shown); "" otherwise.
func boardFileWrite(e *Env, c *Cmd) string {
	switch strings.ToLower(c.Name) {
	case "mpremote":
		for i, p := range c.Pos {
			if p != "cp" {
				continue
			}
			rest := c.Pos[i+1:]
			if len(rest) >= 2 && strings.HasPrefix(rest[len(rest)-1], ":") && !strings.HasPrefix(rest[0], ":") {
				return "mpremote copies " + rest[0] + " onto the board (" + rest[len(rest)-1] + "): the program the board runs changes: " + c.String()
			}
		}
	case "jlinkexe", "jlink":
		for i, a := range c.Args {
			la := strings.ToLower(a)
			if (la == "-commandfile" || la == "-commanderscript") && i+1 < len(c.Args) {
				f := c.Args[i+1]
				for _, p := range writes(e.F) {
					if strings.HasSuffix(p.Path, "/"+strings.TrimPrefix(f, "./")) || p.Path == f {
						return "" // the line writes the command file: its commands are read where it is written
					}
				}
				return "J-Link commander runs the command file " + f + ", which the line does not show (its commands most often load and erase the chip's flash): " + c.String()
			}
		}
	}
	return ""
}

// deviceOnlyActs are verbs that only a physical device takes: a light
// or a plug switched on or off, a speaker's volume, a camera aimed, a
// telescope parked, a robot docked, a drone launched, a feeder or a
// pump dispensing, an alarm armed, a lock opened. A program warden has
// no table for (callfacts.Known) whose first words hold one (sonos Lobby
// volume 85, tinytuya on --id …, huectl light 3 off, feeder dispense 2)
// drives something in the room, whatever the field. Words other tools
// use for files or services (open, close, lock, start, set, move, play)
// are not here: they need a device on the line (deviceVerb); power,
// volume and brightness name things too (wwctl power status, gluster
// volume info): power acts through the on or off after it, volume and
// brightness only with a level after them.
var deviceOnlyActs = map[string]bool{"on": true, "off": true, "toggle": true, "poweron": true, "poweroff": true, "arm": true, "disarm": true,
	"unlock": true, "fire": true, "jog": true, "dispense": true, "actuate": true, "pulse": true, "blink": true, "beep": true, "dim": true, "brightness": true,
	"volume": true, "mute": true, "unmute": true, "tilt": true, "pan": true, "zoom": true, "goto": true, "park": true, "unpark": true, "dock": true, "undock": true,
	"turn": true, "takeoff": true, "land": true, "hover": true, "irrigate": true, "vent": true, "setpoint": true}

// deviceOnlyVerb: the device verb among an unknown program's first three
// positionals, "" when none or a read word comes first.
func deviceOnlyVerb(c *Cmd) string {
	if callfacts.Known(c.Name) || len(c.Pos) == 0 {
		return ""
	}
	for i, p := range c.Pos {
		if i >= 3 {
			break
		}
		l := strings.ToLower(p)
		if deviceReadVerbs[l] {
			return ""
		}
		if deviceOnlyActs[l] {
			if (l == "volume" || l == "brightness" || l == "dim") && (i+1 >= len(c.Pos) || strings.Trim(c.Pos[i+1], "+-%0123456789") != "") {
				continue // gluster volume info, linstor volume list: a noun; a level follows the verb (volume 85, dim 30)
			}
			return p
		}
	}
	return ""
}

// deviceTriggerText: the rule runs only on a line holding one of these.
func deviceTriggerText() []string {
	t := append([]string{"/dev/", "/media/", "/Volumes/", "/mnt/", "cargo flash", "cargo embed", "mpremote", "JLink"}, deviceStems...)
	for w := range deviceOnlyActs {
		t = append(t, " "+w)
	}
	return t
}
