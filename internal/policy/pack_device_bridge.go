package policy

import (
	"strings"
)

// Device bridges as data (remoteops.txt device-*): a phone or board on
// a device bridge (adb, hdc). A developer's own device on USB and an
// emulator are everyday work; a device reached over the network (a
// farm node's serial host:port, a remote adb server) is someone else's,
// so its changes ask. Lowering a device's guard (adbd opened to the
// network, dm-verity off) asks on any real device; a setting that
// switches its app verifier or lock off, or opens unknown-source
// installs or adb, is denied on a real device. Many packages removed in
// one go (xargs … adb uninstall) ask.

// deviceSerial is the device an adb or hdc line names ("" for the only
// one attached) and whether it is an emulator or this machine.
func deviceSerial(c *Cmd) (string, bool) {
	if c.Has("-e") {
		return "emulator", true
	}
	serial := ""
	for _, o := range opsWords("device-serial-opt") {
		if v := bridgeGlobalOpt(c, o); v != "" {
			serial = v
		}
	}
	l := strings.ToLower(serial)
	for _, w := range opsWords("device-lab") {
		if strings.HasPrefix(l, w) {
			return serial, true
		}
	}
	return serial, false
}

// networkDevice: a serial host:port or a host name reaches the device
// over the network: a device farm's or another person's.
func networkDevice(serial string) bool {
	return strings.ContainsAny(serial, ":.")
}

// bridgeVerb is an adb or hdc line's verb: its first operand that is not
// an option's value.
func bridgeVerb(c *Cmd) string {
	for _, p := range c.Pos {
		if !optionBefore(c.Args, p) {
			return strings.ToLower(p)
		}
	}
	return ""
}

// outerBridge is the adb or hdc command whose shell runs c, nil when c
// runs on this machine.
func outerBridge(e *Env, c *Cmd) *Cmd {
	shell := false
	for _, w := range c.Wrappers {
		if f := strings.Fields(w); len(f) == 2 && opsList("device-bridge")[f[0]] && f[1] == "shell" {
			shell = true
		}
	}
	if !shell {
		return nil
	}
	for i := range e.F.Commands {
		if b := &e.F.Commands[i]; opsList("device-bridge")[b.Name] && len(b.Wrappers) == len(c.Wrappers)-1 {
			return b
		}
	}
	return nil
}

// settingVerdict judges settings put NAMESPACE KEY VALUE: "deny" when a
// guard key is set off or an opening key on, "" otherwise.
func settingVerdict(c *Cmd) string {
	if c.Sub(0) != "put" || len(c.Pos) < 4 {
		return ""
	}
	key, val := strings.ToLower(c.Pos[2]), strings.ToLower(c.Pos[3])
	has := func(list string) bool {
		for _, w := range opsWords(list) {
			if strings.Contains(key, w) {
				return true
			}
		}
		return false
	}
	if has("device-guard-key") && opsList("off-values")[val] || has("device-open-key") && opsList("on-values")[val] {
		return "deny"
	}
	return ""
}

func deviceChangeRule() Rule {
	return Rule{
		ID: "external.systems:device-change", Mode: Ask, Tools: shellTools, Cmds: append(opsNames("device-bridge"), "settings", "pm", "cmd", "am", "svc"),
		Desc: "A phone or board on a device bridge (adb, hdc) changed where it is not the developer's own: a device reached over the network (a farm's host:port serial) gets apps installed, removed or cleared, settings changed or a reboot; adbd opened to the network or dm-verity switched off on a real device; packages removed by the list; the verbs, settings keys and lab serials are data (remoteops.txt device-*)",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				if opsList("device-bridge")[c.Name] {
					if onlyHelp(c) {
						continue
					}
					serial, lab := deviceSerial(c)
					v := bridgeVerb(c)
					switch {
					case opsList("device-guard-verb")[v] && !lab:
						return c.Name + " " + v + " lowers the device's guard (adbd on the network, verity off): " + c.String()
					case v == "push" && !lab && systemPartition(c.Pos[len(c.Pos)-1]):
						return c.Name + " push writes into the device's system partition (" + c.Pos[len(c.Pos)-1] + "): the phone's own software changes: " + c.String()
					case opsList("device-change-verb")[v] && !lab && networkDevice(serial):
						return c.Name + " " + v + " changes a device reached over the network (" + serial + "), a shared or someone else's: " + c.String()
					case (v == "install" || v == "install-multiple") && !lab && serial != "" && !strings.HasPrefix(serial, "$") && releaseBuild(c) != "":
						// device_text_r2.go: a release build onto one named phone
						return c.Name + " install puts a release build (" + releaseBuild(c) + ") onto the device " + serial + ": what its user runs is replaced: " + c.String()
					case (v == "install" || v == "install-multiple") && !lab && fedList(c) && releaseBuild(c) != "":
						// s28-dev: adb devices | … | xargs -I{} adb -s {} install -r …-release.apk
						return c.Name + " install puts a release build (" + releaseBuild(c) + ") onto every device a listing picks: what their users run is replaced: " + c.String()
					case v == "uninstall" && fedList(c):
						return c.Name + " uninstalls a list of packages from the device: " + c.String()
					case opsList("device-change-verb")[v] && v != "install" && fedList(c) && strings.HasPrefix(serial, "$"):
						// adb devices | … | xargs -I{} adb -s {} reboot: every
						// device attached, whoever's it is and whatever it runs
						return c.Name + " " + v + " on every device a listing picks: " + c.String()
					}
					continue
				}
				b := outerBridge(e, c)
				if b == nil || !opsList("device-shell-change")[c.Name+":"+strings.ToLower(c.Sub(0))] {
					continue
				}
				serial, lab := deviceSerial(b)
				if !lab && networkDevice(serial) {
					return c.Name + " " + c.Sub(0) + " changes a device reached over the network (" + serial + "): " + c.String()
				}
				if !lab && serial != "" && !strings.HasPrefix(serial, "$") && !strings.HasPrefix(serial, "{") {
					// s28-dev: a real device named by its serial (a fielded
					// handheld, a simulator rig's tablet SIM03): not the
					// developer's emulator
					return c.Name + " " + c.Sub(0) + " changes the device " + serial + ", a real one named by its serial: " + c.String()
				}
			}
			return ""
		},
		Catch: []string{"adb -s farm-node-07:5555 shell pm clear com.company.banking", "adb tcpip 5555", "xargs -n1 adb uninstall < packages_to_remove.txt", "adb -s 10.0.0.12:5555 install -r app.apk", "adb disable-verity", "adb -s R58N91ABCDX remount", "adb push libfoo.so /system/lib64/", "adb -s 192.168.1.9:5555 shell settings put global stay_on_while_plugged_in 3", "adb -s SIM03 shell am force-stop com.drivesim.cockpit", "adb devices | awk 'NR>1{print $1}' | xargs -I{} adb -s {} install -r build/outputs/apk/release/app-release.apk"},
		Allow: []string{"adb shell pm clear com.acme.app.debug", "adb -s emulator-5554 tcpip 5555", "adb uninstall com.acme.app.debug", "adb install -r app/build/outputs/apk/debug/app-debug.apk", "adb logcat -d", "adb -s 10.0.0.12:5555 shell getprop ro.build.version.sdk", "adb push build/test.bin /data/local/tmp/", "adb -s emulator-5554 remount", "adb -s emulator-5554 shell am force-stop com.acme.app", "adb shell am force-stop com.acme.app", "adb devices | awk 'NR>1{print $1}' | xargs -I{} adb -s {} install -r app-debug.apk"},
	}
}

func deviceGuardRule() Rule {
	return Rule{
		ID: "external.systems:device-guard-off", Mode: Deny, Tools: shellTools, Cmds: []string{"settings"},
		Desc: "A device's security setting switched off through its bridge's shell (settings put global package_verifier_enable 0, verifier_verify_adb_installs 0, install_non_market_apps 1, adb_enabled 1) on a real device: apps are installed unchecked, or anyone near it gets a shell; the keys are data (remoteops.txt device-guard-key, device-open-key)",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				if c.Name != "settings" || settingVerdict(c) == "" {
					continue
				}
				if b := outerBridge(e, c); b != nil {
					if _, lab := deviceSerial(b); !lab {
						return "settings switches a device's guard off: " + c.String()
					}
				}
			}
			return ""
		},
		Catch: []string{"adb -s R58M12ABCDE shell settings put global package_verifier_enable 0", "adb shell settings put global verifier_verify_adb_installs 0", "adb shell settings put secure install_non_market_apps 1"},
		Allow: []string{"adb -s emulator-5554 shell settings put global package_verifier_enable 0", "adb shell settings get global package_verifier_enable", "adb shell settings put global package_verifier_enable 1", "adb shell settings put system screen_brightness 128"},
	}
}

// systemPartition: a device path in the partitions an OTA owns
// (s24-device): a file pushed there (after adb root && adb remount)
// replaces part of the phone's own software.
func systemPartition(p string) bool {
	for _, pre := range []string{"/system/", "/vendor/", "/product/", "/odm/", "/system_ext/"} {
		if strings.HasPrefix(p, pre) || p+"/" == pre {
			return true
		}
	}
	return false
}
