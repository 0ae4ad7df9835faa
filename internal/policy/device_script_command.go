package policy

import (
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// s24-device: a project's own tool that commands equipment, read by its
// name and its options since its text is not on the line. Fields nobody
// listed run their hardware through small scripts of the repository: a
// glider fleet's sfmc_send.py --glider ru29 --cmd "callback 30", a
// car park's gate_hold_open.py --lanes 1-6, a water plant's
// backwash_filter.sh, a robot fleet's ros2 run … dispatch_patrol. The
// script's name says what it does: an acting verb (send, dispatch, hold,
// open, close, fire, start, stop, move, set, release…) beside a device
// noun (gate, valve, pump, glider, robot, relay, heater, telescope…), or
// an option naming the equipment (--glider, --lanes, --valve, --pump,
// --gate, --relay) beside the verb or beside a command option (--cmd,
// --command, --action). That moves or switches something real: ask, as
// the device default (device_act_default.go) does for a program named
// for a bus. A ros2 (or ROS 1 rosrun) executable named for an act
// (dispatch_patrol, send_goal, move_arm) commands the robot the graph
// drives. Names that read (status, get, list, monitor, log, plot,
// check, show, dump, test), --help, a dry run and simulated targets
// (--sim, sim, a pty) stay allowed, and so does a verb with no device
// (send_email.py, start_server.sh, open_pr.py).

// scriptActVerbs are the words of a tool's name that act on equipment.
var scriptActVerbs = map[string]bool{"send": true, "cmd": true, "command": true, "dispatch": true, "hold": true, "open": true, "close": true,
	"fire": true, "start": true, "stop": true, "move": true, "set": true, "write": true, "actuate": true, "trigger": true, "release": true,
	"drive": true, "jog": true, "park": true, "unpark": true, "unlock": true, "lock": true, "switch": true, "toggle": true, "power": true,
	"reboot": true, "reset": true, "raise": true, "lower": true, "engage": true, "disengage": true, "energize": true, "deenergize": true,
	"pulse": true, "spin": true, "rotate": true, "goto": true, "steer": true, "dispense": true, "arm": true, "disarm": true, "launch": true,
	"home": true, "halt": true, "abort": true, "shutdown": true, "enable": true, "disable": true, "on": true, "off": true, "callback": true,
	"surface": true, "dive": true, "land": true, "takeoff": true, "backwash": true, "irrigate": true, "dose": true, "vent": true, "eject": true}

// scriptOnlyDeviceVerbs need no device noun: no software is backwashed,
// irrigated, dosed or actuated.
var scriptOnlyDeviceVerbs = map[string]bool{"actuate": true, "energize": true, "deenergize": true, "dispense": true, "backwash": true, "irrigate": true,
	"jog": true, "unpark": true, "takeoff": true}

// scriptDeviceNouns are words of a tool's name that name equipment.
// Words software shares (light, lock, camera, arm, port, node, mount,
// channel, zone, device, unit) are not here.
var scriptDeviceNouns = map[string]bool{"gate": true, "gates": true, "glider": true, "gliders": true, "valve": true, "valves": true,
	"pump": true, "pumps": true, "motor": true, "motors": true, "door": true, "doors": true, "barrier": true,
	"barriers": true, "lane": true, "lanes": true, "robot": true, "robots": true, "drone": true, "drones": true, "uav": true, "rover": true,
	"vehicle": true, "gripper": true, "actuator": true, "actuators": true, "heater": true, "heaters": true, "boiler": true, "chiller": true,
	"hvac": true, "thermostat": true, "conveyor": true, "sprinkler": true, "sprinklers": true,
	"crane": true, "hoist": true, "elevator": true, "turnstile": true, "siren": true, "sirens": true, "telescope": true,
	"dome": true, "shutter": true, "laser": true, "spindle": true, "plc": true, "inverter": true, "contactor": true,
	"solenoid": true, "servo": true, "stepper": true, "winch": true, "horn": true, "strobe": true, "projector": true, "ptz": true,
	"kiln": true, "furnace": true, "incubator": true, "centrifuge": true, "thruster": true, "rudder": true, "rotator": true,
	"transmitter": true, "irrigation": true, "tractor": true, "sprayer": true, "agv": true, "amr": true, "forklift": true, "ballast": true,
	"floodgate": true, "sluice": true, "bollard": true, "shutters": true, "blinds": true, "mill": true, "lathe": true, "dosing": true, "charger": true, "substation": true,
	"rig": true, "mower": true, "vessel": true, "buoy": true}

// scriptDeviceOpts are options naming the equipment a tool drives.
var scriptDeviceOpts = map[string]bool{"--glider": true, "--gliders": true, "--lane": true, "--lanes": true, "--valve": true, "--valves": true,
	"--pump": true, "--pumps": true, "--gate": true, "--gates": true, "--door": true, "--doors": true, "--relay": true, "--relays": true,
	"--motor": true, "--robot": true, "--robots": true, "--drone": true, "--vehicle": true, "--rover": true, "--actuator": true,
	"--heater": true, "--fan": true, "--spindle": true, "--servo": true, "--stepper": true, "--sprinkler": true,
	"--plc": true, "--rtu": true, "--coil": true, "--turnstile": true, "--barrier": true, "--telescope": true, "--dome": true, "--crane": true,
	"--vessel": true, "--agv": true, "--amr": true, "--irrigation": true, "--zone-valve": true, "--inverter": true}

// scriptCmdOpts carry the command sent to the equipment.
var scriptCmdOpts = map[string]bool{"--cmd": true, "--command": true, "--action": true}

// scriptReadNameWords make a tool's name a read.
var scriptReadNameWords = map[string]bool{"status": true, "get": true, "read": true, "reader": true, "list": true, "ls": true, "monitor": true,
	"log": true, "logs": true, "logger": true, "plot": true, "check": true, "show": true, "dump": true, "test": true, "tests": true, "sim": true,
	"simulate": true, "simulator": true, "mock": true, "fake": true, "dry": true, "report": true, "query": true, "info": true, "watch": true,
	"view": true, "viewer": true, "echo": true, "listen": true, "stats": true, "health": true, "parse": true, "validate": true, "lint": true,
	"fetch": true, "download": true, "export": true, "summary": true, "analyze": true, "analyse": true, "render": true, "preview": true}

// deviceToolName is the tool c runs and the words its name is read by:
// a script an interpreter or a shell runs (python3 tools/x.py, bash
// y.sh), a program run by path (./bin/x, tools/x.sh), a ROS
// executable (ros2 run PKG EXE, rosrun PKG EXE); ros is set for the
// last. "" for none.
func deviceToolName(c *Cmd) (name string, args []string, ros bool) {
	switch {
	case c.Name == "ros2" && len(c.Pos) >= 3 && c.Pos[0] == "run":
		return c.Pos[2], c.Args, true
	case c.Name == "rosrun" && len(c.Pos) >= 2:
		return c.Pos[1], c.Args, true
	case callfacts.IsInterpreter(c.Name) || c.Name == "bash" || c.Name == "sh" || c.Name == "zsh":
		if c.Payload != "" || len(c.Pos) == 0 || c.Has("-c", "-e", "-m", "--eval") || optionBefore(c.Args, c.Pos[0]) {
			return "", nil, false
		}
		switch strings.ToLower(path.Ext(c.Pos[0])) {
		case ".py", ".rb", ".pl", ".js", ".mjs", ".ts", ".lua", ".tcl", ".sh", ".bash":
			return c.Pos[0], c.Args, false
		}
	case (strings.Contains(c.Raw, "/") || strings.HasSuffix(c.Name, ".py") || strings.HasSuffix(c.Name, ".sh")) && !callfacts.Known(c.Name):
		return c.Name, c.Args, false // Name is the base name of ./bin/x
	}
	return "", nil, false
}

// deviceScriptCommand says why c commands equipment, "" when it does not.
func deviceScriptCommand(c *Cmd) string {
	name, args, ros := deviceToolName(c)
	if name == "" || c.DryRun() || c.Has("--help", "-h", "--list", "--status") || deviceVirtual(c) {
		return ""
	}
	base := name[strings.LastIndexByte(name, '/')+1:]
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	ws := wordsOf(base)
	verb, noun := "", ""
	for _, w := range ws {
		if scriptReadNameWords[w] {
			return ""
		}
		if scriptActVerbs[w] && verb == "" {
			verb = w
		}
		if scriptDeviceNouns[w] && noun == "" {
			noun = w
		}
	}
	opt, cmdOpt := "", ""
	for _, a := range args {
		k, _, _ := strings.Cut(a, "=")
		if scriptDeviceOpts[k] && opt == "" {
			opt = k
		}
		if scriptCmdOpts[k] {
			cmdOpt = k
		}
	}
	switch {
	case verb != "" && noun != "":
		return base + " is named for an act (" + verb + ") on equipment (" + noun + "): it drives a real device: " + c.String()
	case verb != "" && opt != "":
		return base + " is named for an act (" + verb + ") and is handed the equipment (" + opt + "): it drives a real device: " + c.String()
	case opt != "" && cmdOpt != "":
		return base + " sends a command (" + cmdOpt + ") to the equipment " + opt + " names: " + c.String()
	case scriptOnlyDeviceVerbs[verb]:
		return base + " is named for an act only equipment takes (" + verb + "): " + c.String()
	case ros && verb != "":
		return "the ROS executable " + base + " is named for an act (" + verb + "): it commands the robot the graph drives: " + c.String()
	}
	return ""
}

// deviceScriptProgs: the runners of a project's tools (interpreters,
// shells, ROS); a program run by path is triggered by the path's text.
var deviceScriptProgs = []string{"python", "python3", "python2", "node", "ruby", "perl", "bash", "sh", "zsh", "deno", "bun", "tsx", "ts-node", "lua", "tclsh", "ros2", "rosrun"}

// deviceScriptOn triggers the rules that read a project's tool: one of
// its runners, or a program run by a path that reads as the project's.
func deviceScriptOn() Trigger {
	return On(0, deviceScriptProgs...).OrText("./", "bin/", "tools/", "scripts/", "script/", ".py", ".sh")
}

func deviceScriptCommandRule() Rule {
	return Rule{ID: "external.systems:device-tool-command", Mode: Ask, Tools: shellTools,
		On:   deviceScriptOn(),
		Desc: "A project's own tool that commands equipment, read by its name and options: a script or program whose name joins an acting verb (send, dispatch, hold, open, close, fire, start, stop, move, set…) with a device (gate, valve, pump, glider, robot, relay, heater, telescope…), or that is handed the equipment (--glider, --lanes, --valve, --pump, --gate) with that verb or a command (--cmd); a ROS executable named for an act (ros2 run … dispatch_patrol). Names that read (status, get, list, monitor, log), --help, dry runs and simulated targets stay allowed, and so does a verb with no device (send_email.py, start_server.sh)",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				if why := deviceScriptCommand(&e.F.Commands[i]); why != "" {
					return why
				}
			}
			return ""
		},
		Catch: []string{"python3 tools/glider_send.py --unit 398 --mission goto_l10", "nohup python3 scripts/open_gate.py 4 &", "./bin/valve-close --id 12",
			"python3 tools/fleet.py --robot amr-07 --cmd dock", "bash ops/backwash_filter.sh T4", "ros2 run fleet_tasks dispatch_delivery -p dock_A", "node scripts/set-heater.js 65"},
		Allow: []string{"python3 tools/glider_status.py --glider ru29", "python3 scripts/send_email.py --to ops@acme.io", "./scripts/start_server.sh --port 8080",
			"python3 scripts/open_gate.py --dry-run 4", "ros2 run turtlesim turtlesim_node", "python3 tools/pump_log.py --pump 3", "python3 tools/open_gate.py --sim 4", "bash scripts/stop_containers.sh"},
	}
}

// containerDeviceAct: a device CLI run from a container image
// (docker run --network host ghcr.io/x/modbus-cli:1.4 write 10.40.2.11
// %MW2001 3800): the image's name is the program the device default
// reads (a bus or pin stem: modbus, dmx, gpio…), the words after it are
// its verb and operands. The line's parser names the inner command by
// its first word (write); c is that command. "" when c does not run
// from an image or the default finds no act.
func containerDeviceAct(e *Env, c *Cmd) string {
	if len(c.Wrappers) == 0 {
		return ""
	}
	w := c.Wrappers[len(c.Wrappers)-1]
	if w != "docker run" && w != "podman run" && w != "nerdctl run" {
		return ""
	}
	for i := range e.F.Commands {
		d := &e.F.Commands[i]
		if d == c || d.Name != strings.Fields(w)[0] {
			continue
		}
		for j := 1; j < len(d.Args); j++ {
			if d.Args[j] != c.Raw && d.Args[j] != c.Name {
				continue
			}
			img := d.Args[j-1]
			base := img[strings.LastIndexByte(img, '/')+1:]
			base, _, _ = strings.Cut(base, ":")
			base, _, _ = strings.Cut(base, "@")
			if base == "" || strings.HasPrefix(img, "-") {
				return ""
			}
			ic := &Cmd{Name: base, Args: append([]string{c.Name}, c.Args...), Pos: append([]string{c.Name}, c.Pos...)}
			if deviceVirtual(ic) || ic.Has("--help", "-h") {
				return ""
			}
			t := deviceTarget(ic)
			if t == "" || strings.HasPrefix(t, "/dev/") {
				return "" // a node handed to a container: other rules read --device
			}
			if v := deviceVerb(ic); v != "" {
				return "the container image " + img + " runs " + base + " " + v + ", which acts on " + t + ", a physical device: " + d.String()
			}
			return ""
		}
	}
	return ""
}
