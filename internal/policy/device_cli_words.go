package policy

import (
	"strings"
)

// s28-dev: programs that exist to drive a device in the room or a live
// output (a camera tethered by gphoto2, a mixing desk sent MIDI by
// sendmidi, a broadcast's OBS run by obs-cmd, a USB hub's ports powered
// by uhubctl: remoteops.txt devcli-prog), read by the words of their
// command, not per program: an act word among their subcommands, their
// option names or a bare option value (device-text-act, lan-act-verb,
// and devcli-act: a camera's capture and trigger, MIDI's program change
// pc and control change cc, a broadcast's streaming and recording) fires
// the shutter, switches the desk's scene or takes the stream on or off
// air: asks. Their reads (gphoto2 --auto-detect, --list-files, sendmidi
// list, obs-cmd scene list, info) and --help stay allowed; a read word
// before any act (list, get, status) makes the line a read.

// deviceCLIWord is the act word of a device program's line, "" when it
// reads or says nothing.
func deviceCLIWord(c *Cmd) string {
	a := splitLanArgs(c.Args)
	acts, more, tacts := opsList("lan-act-verb"), opsList("devcli-act"), opsList("device-text-act")
	reads, rmore := opsList("device-text-read"), opsList("lan-device-read")
	class := func(s string) string {
		for _, w := range wordsOf(s) {
			switch {
			case reads[w] || rmore[w]:
				return ""
			case acts[w] || more[w] || tacts[w]:
				return w
			}
		}
		return ""
	}
	pos := a.pos[:min(4, len(a.pos))]
	for _, p := range pos {
		if ws := wordsOf(p); len(ws) == 1 && (reads[ws[0]] || rmore[ws[0]]) {
			return "" // sendmidi list, obs-cmd scene list, streaming status
		}
	}
	for _, p := range pos {
		if strings.ContainsAny(p, "/.:") {
			continue
		}
		if w := class(p); w != "" {
			return w
		}
	}
	for i, o := range a.opts {
		if w := class(o); w != "" {
			return o
		}
		if v := strings.ToLower(a.vals[i]); v != "" && !strings.ContainsAny(v, " ./:") && (acts[v] || opsList("device-text-state")[v]) {
			return o + " " + a.vals[i] // uhubctl -a off
		}
	}
	return ""
}

// deviceCLIRule is no cmdRule of a Remote pack: its skip would leave OBS's
// obsws://localhost alone, and the stream it starts is on air all the
// same.
func deviceCLIRule() Rule {
	return Rule{ID: "external.systems:device-cli-act", Mode: Ask, Tools: shellTools, Cmds: opsNames("devcli-prog"),
		Desc: "A program that exists to drive a device in the room or a live output (gphoto2's camera, sendmidi's mixing desk, obs-cmd's broadcast, uhubctl's USB ports: remoteops.txt devcli-prog) given an act (a capture, a program change, streaming start, a scene switch, a port powered off): the shutter fires, the desk changes scene, the stream goes on or off air; reads (--auto-detect, list, info) and --help stay allowed; the words are data (devcli-act, device-text-act, lan-act-verb)",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				if !opsList("devcli-prog")[c.Name] || onlyHelp(c) || e.dryRun(c) || c.Has("--version") {
					continue
				}
				if w := deviceCLIWord(c); w != "" {
					return c.Name + " acts on the device it drives (" + w + "): " + c.String()
				}
			}
			return ""
		},
		Catch: []string{"gphoto2 --capture-image-and-download --filename items/%Y%m%d.jpg", `sendmidi dev "Yamaha CL5" pc 12`, "obs-cmd --websocket obsws://localhost:4455/secret streaming start", "obs-cmd scene switch Intermission", "gphoto2 --set-config iso=800", "uhubctl -l 1-1 -p 2 -a off"},
		Allow: []string{"gphoto2 --auto-detect", "gphoto2 --list-files", "sendmidi list", "obs-cmd scene list", "obs-cmd info", "obs-cmd --websocket obsws://studio.example.net:4455/secret streaming status", "gphoto2 --help", "uhubctl"}}
}
