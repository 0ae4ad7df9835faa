package policy

import (
	"sort"
	"strconv"
	"strings"
)

// s29-device: a tool nobody listed, handed two or more settings that only
// a machine's actuators take, each with a number: a plotter's
// --speed_pendown 30 --pen_pos_down 35, a vinyl cutter's --speed=5
// --pressure=18, a model railway's --throttle 3 --speed 40, a pump's
// --rpm 300 --pressure 2.5. One such option alone is too common to read
// (a replay's --speed 4, a log's --pump 2); two of them set how a motor,
// a pen, a blade or a valve moves, and the tool moves it: ask. The words
// that name a picture's or a model's settings (angle, zoom, brightness,
// power, temperature, rate) are not among them. Dry runs, --help and
// stand-ins (--sim, a pty) stay allowed, and so do known programs (a
// video encoder's -speed is its own).

// actuatorOptWords name a setting of a machine's actuator.
var actuatorOptWords = map[string]bool{"speed": true, "throttle": true, "pressure": true, "rpm": true, "feed": true, "feedrate": true, "spindle": true,
	"pen": true, "pendown": true, "penup": true, "laser": true, "voltage": true, "volts": true, "amps": true, "setpoint": true, "valve": true, "pump": true,
	"torque": true, "thrust": true, "servo": true, "stepper": true, "motor": true, "heater": true, "pwm": true, "duty": true, "jog": true, "dispense": true,
	"velocity": true, "accel": true}

// actuatorSettings are the options of args that set an actuator to a
// number (their names), when two or more do; nil otherwise.
func actuatorSettings(args []string) []string {
	a := splitLanArgs(args)
	var opts []string
	for i, o := range a.opts {
		if _, err := strconv.ParseFloat(strings.Trim(a.vals[i], `"'`), 64); err != nil {
			continue
		}
		for _, w := range wordsOf(strings.TrimLeft(o, "-")) {
			if actuatorOptWords[w] {
				opts = append(opts, o)
				break
			}
		}
	}
	if len(opts) < 2 {
		return nil
	}
	sort.Strings(opts)
	return opts
}

func actuatorOptionsRule() Rule {
	return Rule{ID: "external.systems:actuator-options", Mode: Ask, Tools: shellTools,
		On:   On(0).OrText("speed", "throttle", "pressure", "rpm", "feed", "spindle", "pen", "laser", "volt", "amps", "setpoint", "valve", "pump", "torque", "thrust", "servo", "stepper", "motor", "heater", "pwm", "duty", "jog", "dispense", "velocity", "accel"),
		Desc: "A tool nobody listed (a project's script, an unknown program) handed two or more settings only a machine's actuators take, each a number (--speed_pendown 30 --pen_pos_down 35, --speed=5 --pressure=18, --throttle 3 --speed 40): a plotter, a cutter, a locomotive or a pump moves as told; one such option alone, a picture's or a model's settings, known programs, dry runs, --help and stand-ins stay allowed",
		Match: func(e *Env) string {
			return eachEquipmentTool(e, func(c *Cmd, name string, args []string) string {
				if opts := actuatorSettings(args); opts != nil && !lanSimName(name) {
					return name + " is handed the settings of a machine's actuators (" + strings.Join(opts, ", ") + "): the machine moves as told: " + short80(c.String())
				}
				return ""
			})
		},
		Catch: []string{"axicli art/lines.svg --speed_pendown 25 --pen_pos_down 30", "python3 tools/cutter.py --speed=4 --pressure=20 decal.svg",
			"timeout 60 python3 scripts/loco.py --throttle 2 --speed 30", "./bin/pumpdrive --rpm 300 --pressure 2.5"},
		Allow: []string{"python3 tools/replay_log.py flight.ulg --speed 4", "python3 tools/pump_log.py --pump 2 --since 1h", "python3 augment.py --angle 15 --zoom 1.2 --brightness 0.1",
			"axicli art/lines.svg --speed_pendown 25 --pen_pos_down 30 --help", "python3 tools/cutter.py --sim --speed=4 --pressure=20 decal.svg", "ffmpeg -i a.mp4 -speed 4 -threads 2 b.webm",
			"python3 train.py --lr 0.001 --batch-size 64"},
	}
}
