package policy

import (
	"strings"
)

// netConfigRule: the machine's network and kernel changed under the user
// — routes, links, DNS, Wi-Fi, kernel modules.
func netConfigRules() []Rule {
	return []Rule{
		cmdRule("core.destroy:network-config", Ask, "Changing the machine's network: DNS servers (resolvectl dns, networksetup -setdnsservers), connections (nmcli connection delete/down, radio off), routes and links (ip route del/flush, ip link set … down, ifconfig … down, route delete); kernel modules loaded or removed are core.destroy:kernel-module", []string{"resolvectl", "networksetup", "nmcli", "ip", "ifconfig", "route", "scutil", "netsh", "wg-quick", "tailscale"},
			func(e *Env, c *Cmd) string {
				a := strings.ToLower(" " + strings.Join(c.Args, " ") + " ")
				switch c.Name {
				case "resolvectl":
					if anyPos(c, "dns", "domain", "revert", "default-route") && len(c.Pos) > 1 {
						return "resolvectl changes the DNS servers: " + c.String()
					}
				case "networksetup":
					if strings.Contains(a, " -set") || strings.Contains(a, " -remove") || strings.Contains(a, " -delete") {
						return "networksetup changes the network settings: " + c.String()
					}
				case "nmcli":
					if strings.Contains(a, " delete ") || strings.Contains(a, " down ") || strings.Contains(a, " off ") || strings.Contains(a, " modify ") || strings.Contains(a, " mod ") {
						return "nmcli changes or drops a network connection: " + c.String()
					}
				case "ip":
					if (strings.Contains(a, " route ") || strings.Contains(a, " r ")) && (strings.Contains(a, " del") || strings.Contains(a, " flush") || strings.Contains(a, " replace ")) ||
						strings.Contains(a, " link ") && strings.Contains(a, " down") || strings.Contains(a, " addr") && (strings.Contains(a, " flush") || strings.Contains(a, " del")) {
						return "ip changes routes, links or addresses: " + c.String()
					}
				case "ifconfig":
					if strings.HasSuffix(strings.TrimSpace(a), " down") {
						return "ifconfig takes an interface down: " + c.String()
					}
				case "route":
					if anyPos(c, "delete", "del", "flush") {
						return "route deletes routes: " + c.String()
					}
				case "scutil":
					if c.Has("--set") {
						return "scutil changes the machine's names: " + c.String()
					}
				case "netsh":
					if strings.Contains(a, " set ") || strings.Contains(a, " delete ") || strings.Contains(a, " reset") {
						return "netsh changes the network settings: " + c.String()
					}
				case "wg-quick":
					if anyPos(c, "down") {
						return "wg-quick takes a VPN down: " + c.String()
					}
				case "tailscale":
					if anyPos(c, "down", "logout") {
						return "tailscale disconnects the machine from its network: " + c.String()
					}
				}
				return ""
			},
			[]string{"sudo resolvectl dns eth0 203.0.113.53", "networksetup -setdnsservers Wi-Fi 8.8.8.8", "nmcli connection delete 'Home WiFi'", "nmcli radio wifi off", "sudo ip route del default", "sudo ip link set eth0 down"},
			[]string{"resolvectl status", "networksetup -listallnetworkservices", "nmcli connection show", "ip addr", "ip route show", "ifconfig", "route -n", "tailscale status"}),
		cmdRule("core.destroy:kernel-module", Deny, "Loading or removing kernel modules (insmod, modprobe, rmmod, kextload): code in the kernel, or a driver gone", []string{"insmod", "rmmod", "modprobe", "kextload", "kextunload", "kmutil"},
			func(e *Env, c *Cmd) string {
				if c.Name == "modprobe" && (c.Has("-n", "--dry-run", "-c", "--showconfig", "--show-depends") || len(c.Pos) == 0) {
					return ""
				}
				if c.Name == "kmutil" && !anyPos(c, "load", "unload") || benchModuleLoad(c) {
					return "" // modprobe vcan: a bench device's in-tree driver (pack_root_bench.go)
				}
				return c.Name + " changes what runs in the kernel: " + c.String()
			},
			[]string{"sudo modprobe -r e1000e", "sudo insmod /tmp/hook.ko", "sudo rmmod nvidia", "sudo modprobe vboxdrv"},
			[]string{"lsmod", "modinfo e1000e", "modprobe -n -v e1000e", "kmutil showloaded"}),
		{ID: "core.destroy:keylogger", Mode: Deny, Tools: shellTools,
			Desc:  "Recording keystrokes or the screen's input events (xinput test, evtest, logkeys, showkey, a pynput/keyboard listener)",
			Match: keylogger,
			Catch: []string{"xinput test 12 > /tmp/keys.log &", "python3 -c 'from pynput import keyboard as k; l=k.Listener(on_press=lambda e: open(\"/tmp/.k\",\"a\").write(str(e))); l.start(); l.join()'", "sudo logkeys --start", "sudo evtest /dev/input/event3"},
			Allow: []string{"xinput list", "python3 -c 'import pynput'", "xinput --list-props 12"}},
	}
}

var keyListen = re(`(?i)keyboard\.Listener|pynput\.keyboard|keyboard\.on_press|keyboard\.hook\(|GetAsyncKeyState|CGEventTapCreate|NSEvent\.addGlobalMonitor`)

func keylogger(e *Env) string {
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		switch c.Name {
		case "xinput":
			if anyPos(c, "test", "test-xi2") {
				return "xinput test records every key pressed: " + c.String()
			}
		case "logkeys", "showkey":
			return c.Name + " records keystrokes: " + c.String()
		case "evtest":
			if len(c.Pos) > 0 {
				return "evtest records an input device's events: " + c.String()
			}
		}
		if c.Payload != "" && (keyListen.MatchString(c.Payload) || strings.Contains(c.Payload, "pynput") && strings.Contains(c.Payload, "Listener")) {
			return c.Name + " listens to every key pressed: " + c.String()
		}
	}
	return ""
}
