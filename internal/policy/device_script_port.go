package policy

import "strings"

// A project script handed a real device's port (python3 stream.py
// job.gcode /dev/ttyUSB0, python3 tools/pump_cli.py --port /dev/ttyUSB0
// --service-mode start-infusion, python3 tools/flash_ecu.py --iface can0
// --image bcm.hex, python3 Tools/px_uploader.py --port /dev/ttyACM0
// fw.px4): a serial port, a USB serial device by id or a CAN interface
// is a physical device on this machine — a laser cutter, an infusion
// pump, a car's ECU, a flight controller — and the script's text is not
// on disk to say it only reads. It asks, as a script run against a named
// site does (external.systems:unread-script-target). A script named for
// reading (monitor_pump.py, read_imu.py, can_logger.py: remoteops.txt
// script-read-verb and deviceReadWords below), a virtual CAN bus (vcan0)
// and a pty pair (/dev/pts/3) stay allowed.

var canIface = re(`^(can|slcan)[0-9]+$`)

// deviceReadWords name scripts that only listen to a device.
var deviceReadWords = map[string]bool{"monitor": true, "log": true, "logger": true, "dump": true, "sniff": true, "sniffer": true, "capture": true,
	"plot": true, "read": true, "reader": true, "record": true, "listen": true, "scope": true, "watch": true, "tail": true, "probe": true, "detect": true, "scan": true, "list": true}

// deviceNodeArg is the argument of args that names a serial port or a
// CAN interface ("" for none).
func deviceNodeArg(args []string) string {
	for _, a := range args {
		v := a
		if k, val, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "-") {
			v = val
		}
		v = strings.Trim(v, `"'`)
		if strings.HasPrefix(v, "/dev/") && serialDevice(v) || canIface.MatchString(v) {
			return v
		}
	}
	return ""
}

// serialDevice: a serial port of a device wired to this machine.
func serialDevice(p string) bool {
	for _, pre := range []string{"/dev/ttyUSB", "/dev/ttyACM", "/dev/ttyS", "/dev/ttyAMA", "/dev/ttyTHS", "/dev/cu.", "/dev/tty.usb", "/dev/serial/", "/dev/rfcomm"} {
		if strings.HasPrefix(p, pre) {
			return true
		}
	}
	return false
}

// deviceReadScript: the script's own name says it only listens to the
// device (monitor_pump.py, can_logger.py, read-imu.py).
func deviceReadScript(p string) bool {
	b := strings.ToLower(p[strings.LastIndexByte(p, '/')+1:])
	if i := strings.LastIndexByte(b, '.'); i > 0 {
		b = b[:i]
	}
	for _, w := range wordsOf(b) {
		if deviceReadWords[w] {
			return true
		}
	}
	return scriptReadsByName(p)
}
