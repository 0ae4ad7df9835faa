package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Files pushed onto another host (net14), beyond its system files
// (remote-copy in pack_net2_stage.go): a network device's own file
// system (scp image.bin sw1:flash:), where a host keeps installed
// software and served sites (/opt, /srv, /var/www, /usr/local), and
// anything but scratch on a host named for production. A host named for
// a lab, dev, test or staging takes pushes freely.

// deviceFileSystems open a path on a network device.
var deviceFileSystems = []string{"flash:", "bootflash:", "disk0:", "disk1:", "slot0:", "nvram:", "usbflash", "harddisk:", "sup-bootflash:", "logflash:"}

// remoteServiceDirs hold what a host runs and serves.
var remoteServiceDirs = []string{"/opt/", "/srv/", "/var/www/", "/usr/local/", "/var/opt/", "/app/", "/apps/"}

// pushedOntoHost: why c's copy of files to path p on host changes that
// host; "" when it does not.
func pushedOntoHost(host, p string, c *Cmd) string {
	for _, fs := range deviceFileSystems {
		if strings.HasPrefix(strings.ToLower(p), fs) {
			return c.Name + " writes " + p + " onto the file system of the network device " + host + ": " + c.String()
		}
	}
	h := host
	if _, after, ok := strings.Cut(h, "@"); ok {
		h = after
	}
	if callfacts.LabTarget(h, nil) || stagingWord.MatchString(h) {
		return ""
	}
	for _, d := range remoteServiceDirs {
		if strings.HasPrefix(p+"/", d) {
			return c.Name + " writes " + p + " on " + host + ", where it keeps installed software and served sites: " + c.String()
		}
	}
	if prodWord.MatchString(h) && !strings.HasPrefix(p, "/tmp/") && !strings.HasPrefix(p, "/var/tmp/") && p != "/tmp" && !strings.HasPrefix(p, "tmp/") {
		return c.Name + " writes " + p + " on " + host + ", a production host: " + c.String()
	}
	return ""
}

// stagingWord: a host named for staging (a rehearsal of production the
// team deploys to freely).
var stagingWord = re(`(?i)(^|[^a-z])(staging|stage|stg|qa|uat)([^a-z0-9]|[0-9]|$)`)
