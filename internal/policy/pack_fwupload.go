package policy

import (
	"net/netip"
	"net/url"
	"path"
	"strings"
)

// A firmware or system image posted to a device's update endpoint
// (curl -F "file=@update.swu" http://192.168.7.2:8080/upload, curl -T
// fw.bin http://10.0.0.7/flash): the device writes it over its own
// system and reboots into it. An image that does not boot bricks it,
// and the line cannot show what is in the image. Three signals must
// meet, each one common alone: the file is an image by its type (.swu,
// .img, .bin, .hex, .fw, .uf2 …), the URL's path says upload, update,
// flash, firmware or OTA, and the host is on the local network (a
// private or link-local address, a .local/.lan name): a device, not an
// API. Ordinary uploads (a JSON, a CSV, a log to an API; an image to a
// public artifact store) stay allowed.

// fwImageExt: the extensions of firmware and system images.
var fwImageExt = map[string]bool{".swu": true, ".img": true, ".bin": true, ".hex": true, ".fw": true, ".uf2": true, ".wic": true,
	".trx": true, ".dfu": true, ".ota": true, ".raucb": true, ".mender": true, ".itb": true, ".sb": true, ".chk": true}

// fwUpdateWords: the words of a device's update endpoint path.
var fwUpdateWords = []string{"upload", "update", "upgrade", "flash", "firmware", "fwupdate", "ota", "swupdate", "sysupgrade"}

// lanHost: a host on the local network: a private, link-local or
// CGNAT address, or a .local/.lan/.home name.
func lanHost(h string) bool {
	if a, err := netip.ParseAddr(h); err == nil {
		return a.IsPrivate() || a.IsLinkLocalUnicast() || netip.MustParsePrefix("100.64.0.0/10").Contains(a)
	}
	for _, s := range []string{".local", ".lan", ".home", ".home.arpa"} {
		if strings.HasSuffix(h, s) {
			return true
		}
	}
	return false
}

// deviceUpdateURL: a URL on a LAN host whose path names an update
// endpoint.
func deviceUpdateURL(a string) bool {
	u, err := url.Parse(a)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || !lanHost(u.Hostname()) {
		return false
	}
	p := strings.ToLower(u.Path)
	for _, w := range fwUpdateWords {
		if strings.Contains(p, w) {
			return true
		}
	}
	return false
}

// uploadedFiles: the files a curl sends as a body or form part
// (-F name=@FILE, -T FILE, --data-binary @FILE).
func uploadedFiles(c *Cmd) []string {
	var out []string
	for i, a := range c.Args {
		v := ""
		switch {
		case (a == "-F" || a == "--form" || a == "-T" || a == "--upload-file" || a == "--data-binary") && i+1 < len(c.Args):
			v = c.Args[i+1]
		case strings.HasPrefix(a, "--form="), strings.HasPrefix(a, "--upload-file="), strings.HasPrefix(a, "--data-binary="):
			_, v, _ = strings.Cut(a, "=")
		default:
			continue
		}
		if a == "-F" || a == "--form" || strings.HasPrefix(a, "--form=") {
			_, v, _ = strings.Cut(v, "=")
		}
		v = strings.TrimPrefix(v, "@")
		if j := strings.IndexByte(v, ';'); j >= 0 {
			v = v[:j] // -F "file=@x.swu;type=application/octet-stream"
		}
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// fwImageSent: f is an image by its extension, or a substitution the line
// fills from a listing of images (SWU=$(ls -t build/*.swu | head -1)):
// the value carries the type of the names it was picked from.
func fwImageSent(e *Env, f string) bool {
	if fwImageExt[strings.ToLower(path.Ext(f))] {
		return true
	}
	if !strings.Contains(f, "$(…)") {
		return false
	}
	for i := range e.F.Commands { // ls -t build/*.swu, find out -name '*.hex'
		c := &e.F.Commands[i]
		if c.Name != "ls" && c.Name != "find" && c.Name != "fd" {
			continue
		}
		for _, a := range c.Args {
			if fwImageExt[strings.ToLower(path.Ext(a))] {
				return true
			}
		}
	}
	return false
}

func firmwareUploadRule() Rule {
	return Rule{
		ID: "external.systems:device-image-upload", Mode: Ask, Tools: shellTools, Cmds: []string{"curl"},
		Desc: "A firmware or system image (.swu, .img, .bin, .hex, .fw, .uf2 …) posted to an upload, update, flash or OTA endpoint of a host on the local network (curl -F file=@update.swu http://192.168.7.2:8080/upload): the device rewrites its system with an image the line does not show, and reboots into it",
		Match: func(e *Env) string {
			for _, c := range e.F.Cmds("curl") {
				if onlyHelp(c) {
					continue
				}
				dest := ""
				for _, a := range c.Pos {
					if deviceUpdateURL(a) {
						dest = a
					}
				}
				if dest == "" {
					continue
				}
				for _, f := range uploadedFiles(c) {
					if fwImageSent(e, f) {
						return "curl sends the image " + f + " to the device's update endpoint " + dest + ": it flashes it and reboots"
					}
				}
			}
			return ""
		},
		Catch: []string{`curl -F "image=@out/esp32-ota.bin" http://10.0.0.42/update`, `curl -T build/fw.hex http://device.local/flash`, `curl --data-binary @openwrt-sysupgrade.img http://192.168.1.1/cgi-bin/sysupgrade`,
			`IMG=$(ls -t deploy/*.swu | head -1); curl -F "file=@$IMG" http://192.168.7.2:8080/upload`},
		Allow: []string{`curl -F "file=@report.csv" http://192.168.7.2:8080/upload`, `curl -F "file=@fw.bin" https://artifacts.example.com/upload`, `curl http://192.168.1.1/update`,
			`curl -F "file=@out/app.bin" http://10.0.0.42/api/logs`, `curl -o fw.bin http://192.168.7.2/firmware/latest.bin`},
	}
}
