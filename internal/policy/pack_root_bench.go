package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Bench hardware bring-up on this machine needs root and changes nothing
// anyone else uses: a CAN, virtual or USB-gadget link brought up
// (sudo ip link set can0 up type can bitrate 500000, ip link add dev
// vcan0 type vcan), the in-tree driver of such a device loaded (modprobe
// vcan, modprobe ftdi_sio), traffic on such a link recorded to a file.
// A real CAN adapter's link (can0, slcan0) set up or brought up is not
// bench-only: it joins the physical bus it is wired to (a vehicle's, a
// machine's), and a wrong bitrate fills that bus with error frames —
// controlling a physical device, which asks (s21; device_script_port.go);
// recording its traffic stays allowed. The machine's own network (eth*,
// en*, wl*) and removing drivers still ask, and so does adding a user to a group, even a device's (usermod
// -aG dialout): blind writers disagree on it, and it changes the
// account for good.

// benchIfacePrefixes name links to a bench or a board under test, or
// virtual ones only this machine sees.
var benchIfacePrefixes = []string{"vcan", "can", "slcan", "vxcan", "dummy", "veth", "tap", "tun", "usb"}

// benchIface: i names such a link.
func benchIface(i string) bool {
	if strings.HasPrefix(i, "usbmon") {
		return false // every USB device's traffic, keyboards too
	}
	for _, p := range benchIfacePrefixes {
		if strings.HasPrefix(i, p) {
			return true
		}
	}
	return false
}

// benchModules are in-tree drivers of virtual and bench devices: CAN,
// virtual links, USB serial adapters, test block and network devices.
var benchModules = map[string]bool{"vcan": true, "can": true, "can_raw": true, "can-raw": true, "can_bcm": true, "can-bcm": true, "can_gw": true,
	"can-gw": true, "can_dev": true, "slcan": true, "vxcan": true, "can_isotp": true, "can-isotp": true, "j1939": true, "dummy": true, "veth": true,
	"tun": true, "bridge": true, "8021q": true, "i2c_dev": true, "i2c-dev": true, "spidev": true, "usbserial": true, "ftdi_sio": true, "cp210x": true,
	"ch341": true, "pl2303": true, "cdc_acm": true, "gpio_sim": true, "gpio-sim": true, "netdevsim": true, "mac80211_hwsim": true, "scsi_debug": true,
	"null_blk": true, "snd_aloop": true, "snd-aloop": true, "loop": true, "peak_usb": true, "gs_usb": true, "kvaser_usb": true, "mcp251x": true, "mcp251xfd": true}

// benchModuleLoad: c loads bench drivers only (modprobe NAME…, never -r
// or a file).
func benchModuleLoad(c *Cmd) bool {
	if c.Name != "modprobe" || c.Has("-r", "--remove", "-f", "--force") || len(c.Pos) == 0 {
		return false
	}
	if c.Has("-a", "--all") {
		for _, p := range c.Pos {
			if !benchModules[p] {
				return false
			}
		}
		return true
	}
	return benchModules[c.Pos[0]] // modprobe NAME [param=value…]
}

// benchLink: c is `ip link` adding, setting or deleting bench links only.
func benchLink(c *Cmd) bool {
	if c.Name != "ip" || len(c.Pos) < 3 || c.Pos[0] != "link" && c.Pos[0] != "l" {
		return false
	}
	switch c.Pos[1] {
	case "set", "add", "del", "delete":
	default:
		return false
	}
	iface := ""
	for i, p := range c.Pos[2:] {
		if p == "dev" || p == "name" {
			if 2+i+1 < len(c.Pos) {
				iface = c.Pos[2+i+1]
			}
			break
		}
		if iface == "" && p != "up" && p != "down" {
			iface = p
		}
	}
	return iface != "" && benchIface(iface) && !canIface.MatchString(iface)
}

// rootBenchWork: what sudo runs is bench bring-up (above).
func rootBenchWork(e *Env, c *Cmd) bool {
	if c.Name != "sudo" && c.Name != "doas" {
		return false
	}
	in := innerCmd(e, c)
	return in != nil && in.Payload == "" && !callfacts.IsShell(in.Name) && (benchModuleLoad(in) || benchLink(in))
}
