package policy

import (
	"path"
	"strings"
)

// s27-devices3: more of a device's text commands read by their words.
//
// A line whose first word names a part of the device and whose second
// says what it does (SHUTTER CLOSE, LAMP OFF, DOOR OPEN, VALVE2 START):
// many projectors, shutters, relays and lab controllers take their
// commands noun first. The second word is read against device-text-act
// and device-text-state (open, close, on, off); a first word that is
// itself a read (STATUS LAMP, GET POWER) or a line ending in ? stays a
// query (deviceTextLineAct checks both before).
//
// An OCPP CALL ([2,"id","ChangeAvailability",{…}]) sent to a charging
// station over a websocket carries its action third; the structured
// method reader takes it, and wscat's -x/--execute message is read as a
// line fed to nc is.

// deviceTextNounVerb: the second word of a noun-first device line acts.
func deviceTextNounVerb(f []string) string {
	if len(f) < 2 || len(f) > 4 {
		return ""
	}
	first := deviceTextWords(f[0])
	if len(first) == 0 || deviceTextReads(first) {
		return ""
	}
	for _, r := range f[0] {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return "" // a path, a URL, a quoted word: not a part's name
		}
	}
	w := strings.ToLower(strings.Trim(f[1], `"'.;`))
	if opsList("device-text-state")[w] || opsList("device-text-act")[w] {
		return w
	}
	return ""
}

// wscatHost is the host wscat connects to (-c/--connect URL), "" when it
// listens.
func wscatHost(c *Cmd) string {
	if v := wscatOpt(c, "-c", "--connect"); v != "" {
		return urlHost(v)
	}
	return ""
}

// wscatMessage is the message wscat sends (-x/--execute), "" for none.
func wscatMessage(c *Cmd) string {
	if c.Name != "wscat" {
		return ""
	}
	return wscatOpt(c, "-x", "--execute")
}

func wscatOpt(c *Cmd, short, long string) string {
	for i, a := range c.Args {
		if (a == short || a == long) && i+1 < len(c.Args) {
			return c.Args[i+1]
		}
		if v, ok := strings.CutPrefix(a, long+"="); ok {
			return v
		}
	}
	return ""
}

// bodyFilesRead: every body a request sends is a file (--data-binary
// @jmf/query_status.jmf, -d @requests/get_status.xml) whose name says it
// reads (query, status, get, list) and nothing that acts: a print
// server's JMF status query, a device's SOAP GetStatus, a POST that is
// how the device's API asks. A file named set_speed.json or a body given
// on the line are read as before.
func bodyFilesRead(c *Cmd) bool {
	files := 0
	for i, a := range c.Args {
		v := ""
		switch {
		case a == "-d" || a == "--data" || a == "--data-binary" || a == "--data-raw" || a == "--data-urlencode" || a == "--json" || a == "-T" || a == "--upload-file" || a == "-F" || a == "--form":
			if i+1 < len(c.Args) {
				v = c.Args[i+1]
			}
		case strings.HasPrefix(a, "--data") && strings.Contains(a, "="):
			_, v, _ = strings.Cut(a, "=")
		default:
			continue
		}
		if _, f, ok := strings.Cut(v, "@"); ok && !strings.ContainsAny(v[:strings.IndexByte(v, '@')], "{ ") {
			v = f
		} else if a != "-T" && a != "--upload-file" {
			return false // a body on the line: read as before
		}
		b := path.Base(v)
		if i := strings.IndexByte(b, '.'); i > 0 {
			b = b[:i]
		}
		if !lanNameReads(b) {
			return false
		}
		files++
	}
	return files > 0
}

// releaseBuild is the package an install hands a device when it is a
// release or production build (app-release.apk, ticketwriter-prod.aab,
// …/apk/release/…), "" for a debug build or none. Put onto one device
// named by its serial (adb -s R58N31ABCDE install -r …-release.apk), it
// replaces the app that phone's user runs in the field; a debug build
// onto a phone, or any build onto an emulator, is the developer's loop.
func releaseBuild(c *Cmd) string {
	for _, p := range c.Pos {
		l := strings.ToLower(p)
		switch path.Ext(l) {
		case ".apk", ".aab", ".apks", ".hap", ".ipa":
		default:
			continue
		}
		debug, rel := false, false
		for _, w := range wordsOf(strings.TrimSuffix(l, path.Ext(l))) {
			switch w {
			case "debug", "dev", "test", "androidtest", "staging", "qa", "beta":
				debug = true
			case "release", "prod", "production", "signed":
				rel = true
			}
		}
		if rel && !debug {
			return path.Base(p)
		}
	}
	return ""
}
