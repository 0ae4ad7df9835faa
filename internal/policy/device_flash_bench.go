package policy

import "strings"

// Firmware written to a board wired to this machine (s21 product
// decision). The levels put "controlling physical devices" at ask: a
// programmer that writes or erases a real chip's flash (esptool
// write_flash, avrdude -U flash:w:…, st-flash write, dfu-util -D,
// nrfjprog --program, openocd -c program, picotool load, fastboot flash,
// stm32flash -w, pio run -t upload, arduino-cli upload…) changes a
// device on the bench — a printer's mainboard, a pump, a robot's motor
// controller — whose last good image the line does not keep. Which
// programs write and with which verbs is callfacts/admin.txt's table
// (its ask:flash lines, @at … local); until now a local programmer's
// lines only applied through a remote shell. Now they apply here too,
// except where the line shows the write does not reach a real device:
//   - an emulator, a simulator or a virtual port is the target (qemu,
//     renode, simavr, Wokwi, a pty pair, a virtual CAN bus, a socket://
//     or rfc2217:// port served by a simulator);
//   - avrdude's dry-run programmers (-c dryrun, -c dryboot) or its -n
//     (no write);
//   - a dry run, --help, and the read verbs (chip_id, read_flash,
//     verify, -l, devices), which the table never names as ask:flash.
// A file written instead of a device (esptool merge_bin, elf2image) is
// not an ask:flash line of the table.

// emulatorWords mark a programmer's target as an emulator or a virtual
// port, not a real board.
var emulatorWords = []string{"qemu", "renode", "simavr", "simulator", "emulator", "wokwi", "/dev/pts/", "/dev/tnt", "vcan", "socket://", "rfc2217://", "loop://", "spy://"}

// benchFlash: c (a local programmer's ask:flash line) writes a real
// device attached to this machine.
func benchFlash(c *Cmd) bool {
	for i, a := range c.Args {
		l := strings.ToLower(a)
		for _, w := range emulatorWords {
			if strings.Contains(l, w) {
				return false
			}
		}
		if c.Name == "avrdude" {
			prog := ""
			switch {
			case (a == "-c") && i+1 < len(c.Args):
				prog = strings.ToLower(c.Args[i+1])
			case strings.HasPrefix(a, "-c") && len(a) > 2:
				prog = strings.ToLower(a[2:])
			}
			if prog == "dryrun" || prog == "dryboot" {
				return false
			}
		}
	}
	if c.Name == "avrdude" && c.Has("-n") {
		return false // avrdude -n: no write to the chip
	}
	return true
}

// benchFlashWhere names the device a local programmer writes: its port,
// probe or address when the line gives one.
func benchFlashWhere(c *Cmd) string {
	for i, a := range c.Args {
		for _, o := range []string{"-P", "--port", "-p", "--upload-port", "-s", "--serial", "--probe", "-d", "--device"} {
			if a == o && i+1 < len(c.Args) && strings.HasPrefix(c.Args[i+1], "/dev/") {
				return "the device on " + c.Args[i+1]
			}
			if v, ok := strings.CutPrefix(a, o+"="); ok && strings.HasPrefix(v, "/dev/") {
				return "the device on " + v
			}
		}
		if strings.HasPrefix(a, "/dev/") {
			return "the device on " + a
		}
	}
	return "the board or device attached to this machine"
}

// flashTargets are build-system targets that write the built image to
// the board (Klipper's, Marlin's, QMK's, Zephyr's and ESP-IDF's
// makefiles and CMake presets: make flash FLASH_DEVICE=…, ninja flash,
// cmake --build build --target flash). A build target named program or
// upload is not counted: a C project's "program" is often its binary.
var flashTargets = map[string]bool{"flash": true, "flash-all": true, "flash_all": true, "flashall": true, "dfu": true,
	"erase-flash": true, "erase_flash": true, "flash-bootloader": true, "flash_bootloader": true, "app-flash": true}

// buildFlashTarget: the flash target c (make, ninja, cmake --build)
// runs, "" for none or when the line points it at an emulator.
func buildFlashTarget(c *Cmd) string {
	var ts []string
	switch c.Name {
	case "make", "gmake", "ninja":
		ts = c.Pos
	case "cmake":
		if !c.Has("--build") {
			return ""
		}
		for i, a := range c.Args {
			if (a == "--target" || a == "-t") && i+1 < len(c.Args) {
				ts = append(ts, c.Args[i+1])
			} else if v, ok := strings.CutPrefix(a, "--target="); ok {
				ts = append(ts, v)
			}
		}
	}
	for _, t := range ts {
		if flashTargets[strings.ToLower(t)] {
			if !benchFlash(c) {
				return ""
			}
			return t
		}
	}
	return ""
}

func boardFlashTargetRule() Rule {
	return cmdRule("core.local:board-flash-target", Ask, "A build target that writes the built firmware to a board (make flash FLASH_DEVICE=/dev/serial/by-id/…, ninja flash, cmake --build build --target flash): a real device's firmware is replaced; building, an emulator's or simulator's target and a dry run stay allowed", []string{"make", "gmake", "ninja", "cmake"},
		func(e *Env, c *Cmd) string {
			if c.Has("-n", "--dry-run", "--just-print", "--recon") {
				return ""
			}
			if t := buildFlashTarget(c); t != "" {
				return c.Name + " " + t + " writes firmware to " + benchFlashWhere(c) + ": " + c.String()
			}
			return ""
		},
		[]string{"cd ~/klipper && make flash FLASH_DEVICE=/dev/serial/by-id/usb-Klipper_stm32f446xx-if00", "ninja -C build flash", "cmake --build build --target flash", "make -C firmware dfu", "gmake flash-all"},
		[]string{"make", "make -n flash", "make flash FLASH_DEVICE=/dev/pts/7", "make QEMU=1 flash", "ninja -C build", "cmake --build build --target all", "make program"})
}
