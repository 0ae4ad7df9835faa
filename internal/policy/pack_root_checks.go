package policy

import (
	"slices"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Reads and checks that need root by their nature, by kind: the
// audit and mandatory-access-control state (ausearch, aureport,
// sestatus, aa-status: the logs and modes of SELinux and AppArmor, a
// profile parsed but not loaded: apparmor_parser -Q), a
// certificate or key store inspected (openssl x509 -noout, keytool
// -list), and a storage integrity check that only verifies and reports
// (zpool scrub, btrfs scrub, fsck -n, smartctl -H). Each reads or
// verifies what is there; sudo still asks for everything that loads,
// sets or repairs (semodule -i, apparmor_parser -r, setenforce, fsck -y,
// zpool upgrade), and secrets read as root are judged by the path rules.

// rootStateReads are programs that only read the audit and
// access-control state, whatever their options: their output is the
// log or the mode.
var rootStateReads = map[string]bool{"ausearch": true, "aureport": true, "aulast": true, "aulastlog": true, "audit2why": true,
	"sestatus": true, "getenforce": true, "getsebool": true, "seinfo": true, "sesearch": true, "matchpathcon": true,
	"aa-status": true, "apparmor_status": true, "aa-enabled": true, "aa-unconfined": true}

// rootCheck: what sudo (or doas) runs only reads access-control or
// audit state, inspects a certificate, or verifies storage.
func rootCheck(e *Env, c *Cmd) bool {
	if c.Name != "sudo" && c.Name != "doas" {
		return false
	}
	in := innerCmd(e, c)
	if in == nil || in.Payload != "" {
		return false
	}
	has := func(opts ...string) bool { return callfacts.HasArg(in.Args, opts...) }
	switch in.Name {
	case "semanage":
		// semanage fcontext -l, semanage port --list: a listing
		return has("-l", "--list") && !has("-a", "--add", "-d", "--delete", "-m", "--modify", "-D", "--deleteall")
	case "openssl":
		// a certificate, request or revocation list printed (-noout -dates,
		// -text) or verified; writing one out, signing or making one is not
		switch in.Sub(0) {
		case "x509", "crl", "req", "verify":
			return !has("-out", "-signkey", "-new", "-x509", "-req", "-CA", "-newkey", "-keyout") && (has("-noout", "-text", "-verify") || in.Sub(0) == "verify")
		}
		return false
	case "apparmor_parser":
		// parsed, preprocessed or its names listed, not loaded into the
		// kernel (-Q skips the load); -r, -a, -R load or remove
		return has("-Q", "--skip-kernel-load", "-p", "--preprocess", "-N", "--names") && !has("-R", "--remove")
	case "keytool":
		return has("-list", "-printcert") && !has("-rfc")
	case "zpool":
		return in.Sub(0) == "scrub" // verifies every block's checksum (and -s/-p stop or pause it)
	case "btrfs":
		return in.Sub(0) == "scrub" && (in.Sub(1) == "start" || in.Sub(1) == "status" || in.Sub(1) == "cancel" || in.Sub(1) == "resume")
	case "fsck", "e2fsck", "xfs_repair", "fsck.ext4", "fsck.ext3", "fsck.xfs", "fsck.vfat", "dosfsck":
		return has("-n", "--no-modify") && !has("-y", "-p", "-a") // a check that changes nothing
	case "smartctl":
		// reports; -s, -o, -S switch features, and a self-test (-t)
		// loads the disk for minutes to hours
		return !has("-s", "--smart", "-o", "--offlineauto", "-S", "--saveauto", "--set", "-t", "--test", "-X", "--abort") && len(in.Pos) > 0
	case "mdadm":
		return has("--detail", "-D", "--examine", "-E", "--query", "-Q") && !slices.ContainsFunc(in.Args, func(a string) bool {
			return a == "--fail" || a == "--remove" || a == "--zero-superblock" || a == "--stop" || a == "--create" || a == "--grow" || a == "--add"
		})
	}
	return rootStateReads[in.Name]
}
