package callfacts

import "strings"

// A debug probe's command file the line wrote: openocd -f FILE reads FILE
// as Tcl commands, the same ones -c takes (printf 'program fw.elf verify
// reset exit\n' > /tmp/flash.cfg && openocd -f board.cfg -f
// /tmp/flash.cfg flashes the board as openocd -c 'program …' does). The
// text of a file the line wrote, given to the program's command-file
// option, is read as the value of its command option, so the tables
// (admin.txt: openocd -c program*) judge both forms alike. A board file
// from the distribution (-f target/stm32f0x.cfg) the line did not write
// stays a file.

// commandFileOpts: a program, its command-file options, and the option
// whose value is one command.
var commandFileOpts = map[string]struct{ file, cmd string }{
	"openocd": {"-f|--file", "-c"},
	// Vivado's hardware manager run on a Tcl script the line wrote
	// (vivado -mode batch -source /tmp/flash.tcl): each line is read as
	// one command, -eval standing for it as xsct's does (admin.txt:
	// vivado -eval program_hw*)
	"vivado": {"-source", "-eval"},
}

// writtenCommandFiles appends, for each command file of c that the line
// wrote, each line of the file's text as the program's command option.
func (n *normalizer) writtenCommandFiles(c *Cmd, name string) {
	o, ok := commandFileOpts[name]
	if !ok || len(n.files) == 0 {
		return
	}
	opts := strings.Split(o.file, "|")
	var add []string
	for i, a := range c.Args {
		f := ""
		for _, opt := range opts {
			if a == opt && i+1 < len(c.Args) {
				f = c.Args[i+1]
			} else if v, ok := strings.CutPrefix(a, opt+"="); ok {
				f = v
			}
		}
		if f == "" {
			continue
		}
		if t, ok := n.files[NormPath(f, n.cwd, n.home)]; ok && t.known {
			for _, l := range strings.Split(t.s, "\n") {
				if l = strings.TrimSpace(l); l != "" && l[0] != '#' {
					add = append(add, o.cmd, l) // a line is a command
				}
			}
		}
	}
	c.Args = append(c.Args, add...)
}

// stdinCommandTools read their commands from standard input when given
// "-" as the command (hamlib's rigctl and rotctl: printf 'P 0 90\n' |
// rotctl -r gs:4533 - turns the antenna as rotctl -r gs:4533 P 0 90
// does). The text the line feeds them is read as those commands.
var stdinCommandTools = map[string]bool{"rigctl": true, "rotctl": true}

// fedCommands replaces the "-" of such a tool with the words of the
// text the line feeds it.
func fedCommands(c *Cmd, name string) {
	if !stdinCommandTools[name] || strings.TrimSpace(c.Heredoc) == "" {
		return
	}
	for i, a := range c.Args {
		if a == "-" {
			args := append(append([]string{}, c.Args[:i]...), strings.Fields(c.Heredoc)...)
			c.Args = append(args, c.Args[i+1:]...)
			return
		}
	}
}
