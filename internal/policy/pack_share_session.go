package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Deletes in a file-transfer or share client's session. smbclient,
// lftp, sftp and psftp run a script of their own verbs on the
// server, given by -c/-e or fed on their input (callfacts/fedsession.go);
// there rm, del and delete remove files others keep on the share. Read as
// a shell's, rm a.txt would be one file in a work tree (routine): in a
// session it is a file on the server, so it asks. Recursive and mask
// deletes (deltree, mdel, rm -r, mirror --delete) are denied by
// callfacts/admin.txt's device lines; listings and downloads (ls, dir,
// get, mget) stay allowed.

// sessionDeleteVerbs: the session verbs that remove a file or an empty
// folder on the server.
var sessionDeleteVerbs = map[string]bool{"rm": true, "del": true, "delete": true, "rmdir": true, "rd": true, "mrm": true, "mdel": true, "mdelete": true, "deltree": true}

// sessionDelete is the first delete command of a session script ("" when
// it deletes nothing).
func sessionDelete(script string) string {
	for _, line := range strings.FieldsFunc(script, func(r rune) bool { return r == '\n' || r == ';' }) {
		f := strings.Fields(line)
		if len(f) > 0 && sessionDeleteVerbs[strings.ToLower(f[0])] { // !rm runs here, on this machine: not a session verb
			return strings.TrimSpace(line)
		}
	}
	return ""
}

func shareSessionRules() []Rule {
	return append(fedTextRules(), []Rule{
		cmdRule("external.systems:session-delete", Ask, "A file-transfer or share client's session that deletes on the server (smbclient //fs/share -c 'rm q3.xlsx', sftp host <<EOF rm old.tar EOF, lftp -c 'open h; rm a'): others' files there are gone; listings and downloads stay allowed, recursive deletes are denied (callfacts/admin.txt)",
			callfacts.FileSessionTools(),
			func(e *Env, c *Cmd) string {
				if c.Payload == "" {
					return ""
				}
				if d := sessionDelete(c.Payload); d != "" {
					return c.Name + " deletes on the server: " + d
				}
				return ""
			},
			[]string{`smbclient //fs01/team -U bob -c 'rm q3.xlsx'`, `lftp -c 'open ftp.example.com; rm index.html'`, "smbclient //fs01/team -U bob <<EOF\ndel q3.xlsx\nEOF"},
			[]string{`smbclient //fs01/team -U bob -c 'ls'`, `lftp -c 'open ftp.example.com; get index.html'`, `sftp host`}),
	}...)
}
