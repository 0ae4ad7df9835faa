package policy

import (
	"strings"
)

// s28-dev: a project's tool handed the equipment it drives by an option,
// with an act in its words, though no host is on the line. A wind farm's
// curtail_park.sh --park NorthRidge --limit 40, a bowling centre's
// lanectl.py --lane 1-24 --power off, a lottery's trigger_draw.py
// --machine halogen-2 --start, a hospital's generator test gen_test.py
// --gen gen2 --start --load-bank, a lab's run_sequence.py --instrument
// hplc-03: the option names a real machine (remoteops.txt equip-opt:
// --machine, --instrument, --gen, --park, --lane, --plc, --pump…), and
// the tool's words act, read as lan_program_act.go reads a tool pointed
// at a LAN machine (an acting option, a subcommand, a bare act value
// such as --power off, a name such as curtail_park). A tool named for
// running something (run_sequence, queue_job: equip-name-verb) runs it
// on the machine it is handed. A "test" in the name is no read here: a
// generator's or a siren's test runs the equipment. Reads (--status,
// --list, status_, monitor_), dry runs, --help and stand-ins (--sim,
// sim_, mock_) stay allowed.
//
// A protocol message only equipment takes (SECS/GEM's s2f41 remote
// command: remoteops.txt lan-act-msg) acts wherever the tool is
// pointed, even at hosts a list feeds (xargs -I{} gemhost.py --tool {}
// s2f41 --rcmd PAUSE).

// equipmentOpt is the option of args naming the equipment (its name and
// value), "" for none: a value that is a stand-in (sim, mock, test) or
// another option is none.
func equipmentOpt(args []string) (string, string) {
	a := splitLanArgs(args)
	for i, o := range a.opts {
		v := strings.ToLower(strings.Trim(a.vals[i], `"'`))
		if v == "" {
			continue
		}
		ws := wordsOf(o)
		if len(ws) == 0 || !opsList("equip-opt")[ws[0]] {
			continue
		}
		if lanSimName(v) || v == "test" || v == "localhost" || strings.HasPrefix(v, "127.") {
			continue
		}
		return o, a.vals[i]
	}
	return "", ""
}

// equipmentArgsWithout drops the option o and its value from args: the
// equipment's name is not its act (--park NorthRidge, --gate 3).
func equipmentArgsWithout(args []string, o string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		k, _, has := strings.Cut(args[i], "=")
		if k == o {
			if !has && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
			}
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// equipmentToolAct says why the tool name, given args, acts on the
// equipment an option names; "" otherwise.
func equipmentToolAct(name string, args []string) string {
	o, v := equipmentOpt(args)
	if o == "" {
		return ""
	}
	var kept []string
	for _, w := range wordsOf(name) {
		if w != "test" && w != "tests" {
			kept = append(kept, w)
		}
	}
	base := strings.Join(kept, "_")
	if base == "" || lanSimName(base) {
		return ""
	}
	rest := equipmentArgsWithout(args, o)
	if lanArgsRead(rest) {
		return ""
	}
	if why := lanProgramAct(base, rest); why != "" {
		return name + " is handed the equipment " + o + " " + v + " and acts on it (" + why + ")"
	}
	if lanNameReads(name) {
		return "" // run_tests.py --machine linux-x64: named for a test run, not the equipment's
	}
	for _, w := range kept {
		if opsList("equip-name-verb")[w] {
			return name + " is named for running something (" + w + ") on the equipment " + o + " " + v + " names"
		}
	}
	return ""
}

// equipmentMsg is a protocol message only equipment takes among the
// first arguments of a tool (s2f41), "" for none.
func equipmentMsg(args []string) string {
	a := splitLanArgs(args)
	for _, p := range a.pos[:min(3, len(a.pos))] {
		if opsList("lan-act-msg")[strings.ToLower(p)] {
			return p
		}
	}
	return ""
}

func equipmentOptActRule() Rule {
	return Rule{ID: "external.systems:equipment-option-act", Mode: Ask, Tools: shellTools,
		On:   deviceScriptOn(),
		Desc: "A project's tool handed the equipment it drives by an option (--machine, --instrument, --gen, --park, --lane, --plc, --pump: remoteops.txt equip-opt) with an act in its words (an acting option, a subcommand, --power off, a name such as curtail_park or run_sequence), or given a protocol message only equipment takes (SECS s2f41): the real machine acts though no host is on the line; reads, dry runs, --help and stand-ins stay allowed",
		Match: func(e *Env) string {
			return eachEquipmentTool(e, func(c *Cmd, name string, args []string) string {
				if m := equipmentMsg(args); m != "" && !lanSimName(name) {
					return name + " sends " + m + ", a message only equipment takes, to the tool it is pointed at: " + short80(c.String())
				}
				if why := equipmentToolAct(name, args); why != "" {
					return why + ": " + short80(c.String())
				}
				return ""
			})
		},
		Catch: []string{
			"python3 tools/lanectl.py --lane 1-24 --power off",
			"./tools/curtail_park.sh --park NorthRidge --limit 40",
			"python3 tools/gen_test.py --gen gen2 --start --load-bank --minutes 30",
			"python3 scripts/run_sequence.py --instrument hplc-03 --seq seq.csv",
			"cat tools.txt | xargs -I{} python3 tools/gemhost.py --tool {} s2f41 --rcmd PAUSE",
			"node scripts/kiosk.js --kiosk lobby-2 reboot",
		},
		Allow: []string{
			"python3 tools/lanectl.py --lane 1-24 --status",
			"./tools/park_report.sh --park NorthRidge --since 24h",
			"python3 tools/gen_test.py --gen gen2 --dry-run --start",
			"python3 tools/gen_test.py --gen sim --start",
			"python3 scripts/run_sequence.py --help",
			"python3 tools/gemhost.py --tool etch-07 s1f3",
			"python3 scripts/run_tests.py --machine linux-x64",
		}}
}

// eachEquipmentTool calls f on each command run by a program that may
// drive equipment (lanProgramName: a project's tool, an unknown program),
// with its name and arguments, skipping --help, dry runs and stand-ins;
// the first reason f gives is the answer.
func eachEquipmentTool(e *Env, f func(c *Cmd, name string, args []string) string) string {
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if onlyHelp(c) || e.dryRun(c) || equipmentVirtual(c) {
			continue
		}
		if name, args := lanProgramName(c); name != "" {
			if why := f(c, name, args); why != "" {
				return why
			}
		}
	}
	return ""
}

// equipmentVirtual: the tool is pointed at a stand-in (--sim, vcan0, a
// pty); a file under /tmp it is handed (--seq /tmp/seq.csv) is no
// stand-in, as deviceVirtual counts a /tmp path.
func equipmentVirtual(c *Cmd) bool {
	var args []string
	for _, a := range c.Args {
		if !strings.HasPrefix(a, "/tmp/") || !strings.Contains(a[5:], ".") {
			args = append(args, a)
		}
	}
	return deviceVirtual(&Cmd{Name: c.Name, Args: args})
}
