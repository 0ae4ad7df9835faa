package policy

import "strings"

// An additive copy of the user's own files into a backup folder on a box
// of their own network: rsync -av ~/Pictures/weddings/2024-06-15_smith/
// admin@nas.studio.lan:/volume1/backup/weddings/2024-06-15_smith/. Home
// data copied off the machine is asked about (copy-off-machine), but a
// copy that only adds, to a LAN host (.lan, .local, a private address),
// into a folder named for backups, is the user keeping a second copy of
// their work where they keep it: nothing is lost or exposed. A copy that
// deletes at either end (--delete, --remove-source-files), a cloud
// remote (gdrive:backup), a public share, or credentials and config
// (only data under home counts) are read as before.

// backupDirWords name a folder that holds backups.
var backupDirWords = map[string]bool{"backup": true, "backups": true, "bak": true}

// lanBackupCopy: c copies only (no deleting option) to dst, a path on a
// LAN host with a folder named for backups.
func lanBackupCopy(c *Cmd, dst string) bool {
	if c.Name != "rsync" && c.Name != "scp" {
		return false
	}
	for _, f := range c.Flags {
		if strings.HasPrefix(f, "--del") || strings.HasPrefix(f, "--remove") {
			return false
		}
	}
	host, p := hostPath(dst)
	if i := strings.LastIndexByte(host, '@'); i >= 0 {
		host = host[i+1:]
	}
	if !lanHost(strings.ToLower(host)) || sharedPath(p) {
		return false
	}
	for _, part := range strings.Split(strings.ToLower(p), "/") {
		if backupDirWords[part] {
			return true
		}
		for _, w := range wordsOf(part) {
			if backupDirWords[w] {
				return true
			}
		}
	}
	return false
}
