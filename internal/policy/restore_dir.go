package policy

import "strings"

// Backup tools' restores write a snapshot's files over a directory, as an
// archive unpacked there does: the files are not named on the line, so
// the directory's zone decides (extractDir: ~ or a home config directory
// asks, / or a system directory is denied; the project or /tmp is
// routine). script14: restic restore --target ~, borg extract in ~,
// duplicity restore URL ~/, kopia snapshot restore ID ~/, rclone copy
// remote:backup ~/, tmutil restore X ~/Documents.

// restorers are the programs restoreDir knows, with the subcommands that
// restore.
var restorers = map[string]string{"restic": "restore", "borg": "extract", "duplicity": "restore", "kopia": "restore",
	"rclone": "copy copyto sync move moveto", "tmutil": "restore", "bup": "restore", "rdiff-backup": "restore"}

// restoreDir is the directory a backup tool's restore writes into
// (through norm and dirOr as extractDir gives them), "" when c restores
// nothing.
func restoreDir(c *Cmd, norm, dirOr func(string) string) string {
	subs, ok := restorers[c.Name]
	if !ok || len(c.Pos) == 0 {
		return ""
	}
	s := c.Pos[0]
	pos := c.Pos[1:]
	if c.Name == "kopia" && s == "snapshot" && len(pos) > 0 {
		s, pos = pos[0], pos[1:] // kopia snapshot restore ID DIR
	}
	if c.Name == "duplicity" && strings.Contains(s, "://") {
		s, pos = "restore", c.Pos // duplicity URL DIR: a restore from the URL
	}
	if c.Name == "rdiff-backup" && c.Has("-r", "--restore-as-of") {
		s, pos = "restore", c.Pos
	}
	if !strings.Contains(" "+subs+" ", " "+s+" ") {
		return ""
	}
	switch c.Name {
	case "restic":
		return dirOr(extractOpt(c, "-t", "--target"))
	case "bup":
		return dirOr(extractOpt(c, "-C", "--outdir"))
	case "borg":
		return c.Dir // borg extract writes into the working directory
	}
	if len(pos) < 2 && c.Name != "tmutil" || len(pos) == 0 {
		return ""
	}
	d := pos[len(pos)-1]
	if strings.Contains(d, ":") {
		return "" // rclone copy ./x remote:y: to another host
	}
	return norm(d)
}

// systemRestore: a restore's directory outside home is the system's own
// only at the root or in the directories the system runs from; a new
// directory elsewhere (/srv/restore-check, /mnt/verify) is a scratch copy.
func systemRestore(d string) bool {
	if d == "/" {
		return true
	}
	for _, r := range []string{"/etc", "/usr", "/boot", "/bin", "/sbin", "/lib", "/lib64", "/var", "/root"} {
		if d == r || strings.HasPrefix(d, r+"/") && r != "/var" {
			return true
		}
	}
	return strings.HasPrefix(d, "/var/lib/")
}
