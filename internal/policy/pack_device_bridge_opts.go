package policy

import "strings"

// A device bridge's global options (adb -s SERIAL, -t TRANSPORT, -H HOST)
// stand before its verb; after it, the same letters are the verb's own
// (adb install -r -t app-debug.apk: -t allows a test package, and the
// APK's path is no device serial reached over the network).

// bridgeGlobalOpt is the value of global option o of an adb or hdc line
// ("o v", "o=v", or adb's joined "-sSERIAL"), "" when the options before
// the verb do not set it.
func bridgeGlobalOpt(c *Cmd, o string) string {
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		if !strings.HasPrefix(a, "-") {
			return "" // the verb: what follows is its own
		}
		switch {
		case a == o && i+1 < len(c.Args):
			return c.Args[i+1]
		case strings.HasPrefix(a, o+"="):
			return a[len(o)+1:]
		case len(o) == 2 && strings.HasPrefix(a, o) && !strings.HasPrefix(a, "--"):
			return a[2:]
		}
		if opsList("device-serial-opt")[a] {
			i++ // another global option's value
		}
	}
	return ""
}
