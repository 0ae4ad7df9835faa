package policy

import "strings"

// s21-late2: keystrokes pushed into a terminal session that holds a
// device's serial console. `screen -dmS sw /dev/ttyUSB0 9600` (or a tmux
// session running picocom, minicom, cu on a tty) opens a switch's,
// router's or controller's console in the background; `screen -S sw -X
// stuff 'reload\ry\r'` or `tmux send-keys -t sw 'erase startup' Enter`
// then types into it: the device runs what is typed. When the same line
// opens the session on a serial device, text stuffed into it asks; a
// query line (ending in ?), an empty keystroke, and sessions not tied to
// a serial device on the line (a shell, a dev server) stay allowed.

// serialSessions are the session names the line opens on a serial
// device (/dev/tty*, /dev/cu.*, /dev/serial/…).
func serialSessions(e *Env) map[string]bool {
	var out map[string]bool
	for i := range e.F.Commands {
		t := &e.F.Commands[i]
		if t.Name != "screen" && t.Name != "tmux" {
			continue
		}
		name, serial := "", false
		for j, a := range t.Args {
			if (a == "-S" || a == "-s" || a == "-dmS" || a == "-dmSL") && j+1 < len(t.Args) {
				name = t.Args[j+1]
			}
			if strings.HasPrefix(a, "-dmS") && len(a) > 4 && a != "-dmSL" {
				name = a[4:]
			}
			if serialDevicePath(a) {
				serial = true
			}
		}
		if serial && name != "" {
			if out == nil {
				out = map[string]bool{}
			}
			out[name] = true
		}
	}
	return out
}

// serialDevicePath: a word names a serial device or runs a serial
// terminal on one (picocom /dev/ttyUSB0 inside tmux's command string).
func serialDevicePath(a string) bool {
	for _, p := range []string{"/dev/tty", "/dev/cu.", "/dev/serial/", "/dev/rfcomm"} {
		if strings.Contains(a, p) {
			return true
		}
	}
	return false
}

// stuffedText: the session c types into and the text, for `screen -S
// NAME -X stuff TEXT` and `tmux send-keys -t NAME TEXT…`.
func stuffedText(c *Cmd) (string, string) {
	name, text := "", ""
	switch c.Name {
	case "screen":
		for j, a := range c.Args {
			if (a == "-S" || a == "-r" || a == "-x") && j+1 < len(c.Args) {
				name = c.Args[j+1]
			}
			if a == "stuff" && j > 0 && c.Args[j-1] == "-X" && j+1 < len(c.Args) {
				text = c.Args[j+1]
			}
		}
	case "tmux":
		send := false
		for j := 0; j < len(c.Args); j++ {
			a := c.Args[j]
			switch {
			case a == "send-keys" || a == "send":
				send = true
			case send && a == "-t" && j+1 < len(c.Args):
				name, _, _ = strings.Cut(c.Args[j+1], ":")
				j++
			case send && !strings.HasPrefix(a, "-") && a != "Enter" && a != "C-m":
				text += a + "\n"
			}
		}
	}
	return name, text
}

func serialSessionRule() Rule {
	return cmdRule("external.systems:serial-console-keys", Ask, "Keystrokes pushed into a terminal session the same line opened on a device's serial console (screen -dmS sw /dev/ttyUSB0 9600 && screen -S sw -X stuff 'reload\\ry\\r', tmux send-keys into a picocom session): the switch, router or controller behind the port runs what is typed; a query line (ending in ?) and sessions not opened on a serial device stay allowed", []string{"screen", "tmux"},
		func(e *Env, c *Cmd) string {
			name, text := stuffedText(c)
			if name == "" || text == "" {
				return ""
			}
			if !serialSessions(e)[name] {
				return ""
			}
			if l := devicePortText(text); l != "" {
				return c.Name + " types \"" + l + "\" into the session " + name + ", a device's serial console: " + c.String()
			}
			return ""
		},
		[]string{`screen -dmS sw-r12 /dev/ttyUSB0 9600 && screen -S sw-r12 -X stuff 'reload\ry\r'`, `tmux new -d -s rtr 'picocom -b 115200 /dev/ttyUSB1' && tmux send-keys -t rtr 'write erase' Enter`, `screen -dmS ups /dev/serial/by-id/usb-APC-if00 2400 && screen -S ups -X stuff 'Z'`},
		[]string{`screen -dmS sw-r12 /dev/ttyUSB0 9600 && screen -S sw-r12 -X stuff 'show version?\r'`, `tmux new -d -s dev 'npm run dev' && tmux send-keys -t dev 'rs' Enter`, `screen -S build -X stuff 'make test\n'`})
}
