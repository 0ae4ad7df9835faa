package policy

import (
	"net/netip"
	"strings"
)

// s24-device: equipment on the network that a media tool drives. A
// stream sent to a multicast group (ffmpeg … -f rtp rtp://239.0.1.10,
// gst-launch-1.0 … udpsink host=239.1.1.1, cvlc --sout …udp://239.…)
// plays on every receiver subscribed to it: a building's paging
// speakers, a venue's displays, an IPTV headend. A scan started on a
// network scanner (scanimage -d 'epson2:net:10.4.0.22', a sane net:
// backend) runs a shared office machine. Both ask; listing devices
// (scanimage -L), --help, a stream to this machine or to one unicast
// peer stay allowed.

// multicastTarget is a multicast IPv4 address among c's arguments (an
// URL's host, host=…, dst=… inside a VLC chain), "" for none. The
// link-local block 224.0.0.0/24 (mDNS, routers) is not a stream's.
func multicastTarget(c *Cmd) string {
	for _, a := range c.Args {
		if !strings.Contains(a, "22") && !strings.Contains(a, "23") {
			continue
		}
		for _, mm := range ipv4Word.FindAllStringSubmatch(a, -1) {
			m := mm[0]
			if ad, err := netip.ParseAddr(m); err == nil && ad.IsMulticast() && !ad.IsLinkLocalMulticast() {
				return m
			}
		}
	}
	return ""
}

var ipv4Word = re(`\b2[23][0-9]\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\b`)

// mediaSenders stream to an output the line names.
var mediaSenders = map[string]bool{"ffmpeg": true, "avconv": true, "gst-launch-1.0": true, "gst-launch": true, "vlc": true, "cvlc": true, "tsplay": true, "multicat": true}

func networkMediaDeviceRule() Rule {
	return cmdRule("external.systems:network-media-device", Ask, "A stream sent to a multicast group (ffmpeg -f rtp rtp://239.…, gst-launch udpsink host=239.…, cvlc --sout …udp://239.…) plays on every receiver on the network (paging speakers, displays); a scan started on a network scanner (scanimage -d …net:…) runs a shared office machine. Listing devices, --help and streams to this machine or one peer stay allowed",
		[]string{"ffmpeg", "avconv", "gst-launch-1.0", "gst-launch", "vlc", "cvlc", "tsplay", "multicat", "scanimage"},
		func(e *Env, c *Cmd) string {
			if onlyHelp(c) {
				return ""
			}
			if c.Name == "scanimage" {
				if c.Has("-L", "--list-devices", "-f", "--formatted-device-list", "-A", "--all-options", "-V", "--version", "-h", "--help", "-n", "--dont-scan") {
					return ""
				}
				for i, a := range c.Args {
					d := ""
					if (a == "-d" || a == "--device-name") && i+1 < len(c.Args) {
						d = c.Args[i+1]
					} else if v, ok := strings.CutPrefix(a, "--device-name="); ok {
						d = v
					}
					if strings.Contains(d, "net:") || strings.Contains(d, "airscan:") || strings.Contains(d, "escl:") {
						return "scanimage starts a scan on the network scanner " + d + ", a shared machine: " + c.String()
					}
				}
				return ""
			}
			if mediaSenders[c.Name] {
				if m := multicastTarget(c); m != "" {
					return c.Name + " streams to the multicast group " + m + ": every receiver on the network plays it: " + c.String()
				}
			}
			return ""
		},
		[]string{"ffmpeg -re -i chime.wav -acodec pcm_mulaw -f rtp rtp://239.10.0.5:5004", "gst-launch-1.0 filesrc location=a.wav ! wavparse ! rtpL16pay ! udpsink host=239.1.1.1 port=5004",
			"cvlc promo.mp4 --sout '#udp{dst=239.255.0.7:1234}'", "scanimage -d 'airscan:e0:Office MFP' --format=png > page.png"},
		[]string{"ffmpeg -i in.mp4 -f rtp rtp://127.0.0.1:5004", "ffmpeg -i in.mp4 -f mpegts udp://192.168.1.20:1234", "scanimage -L", "scanimage -d 'epson2:net:10.4.0.22' -A",
			"ffmpeg -i in.mp4 out.webm"})
}
