package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Text fed to a tool on the same line, the parts no other reader takes:
//
//   - a file-transfer console's script (lftp -e/-c, smbclient -c, a
//     here-document or a batch file the line wrote fed to sftp, psftp,
//     ncftp) that uploads: put, mput, reput, send, append and mirror -R
//     publish files on the server others fetch from (a site, a partner's
//     feed). Downloads (get, mget, mirror without -R), listings and
//     mirror --dry-run stay allowed. Deletes are session-delete's
//     (pack_share_session.go); the classic ftp client's verbs are
//     callfacts/admin.txt's.
//   - a script the line edits with sed -i and then runs (sed -i
//     's/sandbox.api/api/' scripts/sync.sh && ./scripts/sync.sh): what
//     runs is the text the edit made, and an edit that points it away from
//     a test, sandbox or staging target, at production, or switches its
//     dry run off makes a routine run a real one. Edits that go toward a
//     test target, or change a version or a flag, stay allowed.

// sessionUpload is the first upload command of a session script ("" when
// it uploads nothing).
func sessionUpload(script string) string {
	for _, line := range strings.FieldsFunc(script, func(r rune) bool { return r == '\n' || r == ';' }) {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch strings.ToLower(f[0]) {
		case "put", "mput", "reput", "send", "append":
			if len(f) > 1 {
				return strings.TrimSpace(line)
			}
		case "mirror":
			rev, dry := false, false
			for _, a := range f[1:] {
				switch {
				case a == "--dry-run" || a == "--just-print":
					dry = true
				case a == "--reverse" || a == "-R" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "R"):
					rev = true
				}
			}
			if rev && !dry {
				return strings.TrimSpace(line)
			}
		}
	}
	return ""
}

// sessionScript: the commands a file-transfer client runs, shown on the
// line (-c/-e, fed, or a batch file the line wrote).
func sessionScript(c *Cmd) string {
	if c.Payload != "" {
		return c.Payload
	}
	return c.Heredoc
}

// sedInPlaceEdits: the files a sed -i s/OLD/NEW/ edit changes, with
// its old and new text (none when c is no such edit).
func sedInPlaceEdits(c *Cmd) (files []string, olds, news []string) {
	inPlace := false
	for _, a := range c.Args {
		if a == "-i" || strings.HasPrefix(a, "-i") && !strings.HasPrefix(a, "--") || strings.HasPrefix(a, "--in-place") {
			inPlace = true
		}
	}
	if !inPlace || len(c.Pos) < 2 {
		return nil, nil, nil
	}
	for _, expr := range c.Pos[:1] {
		if len(expr) < 4 || expr[0] != 's' {
			return nil, nil, nil
		}
		d := string(expr[1])
		parts := strings.Split(expr[2:], d)
		if len(parts) < 2 {
			return nil, nil, nil
		}
		olds, news = append(olds, parts[0]), append(news, parts[1])
	}
	return c.Pos[1:], olds, news
}

var (
	testTarget = re(`(?i)(^|[^a-z])(test|testing|sandbox|staging|stage|stg|dev|qa|uat|mock|fake|local|localhost)([^a-z]|$)`)
	prodTarget = re(`(?i)(^|[^a-z])(prod|production|live|prd)([^a-z]|$)`)
	dryOn      = re(`(?i)(dry[-_]?run|noop|no[-_]op|simulate|--check|what-?if)`)
)

// riskyScriptEdit says why an edit turns a script's run into a real one
// ("" when it does not).
func riskyScriptEdit(old, new string) string {
	switch {
	case testTarget.MatchString(old) && !testTarget.MatchString(new):
		return "points it away from " + old
	case prodTarget.MatchString(new) && !prodTarget.MatchString(old):
		return "points it at " + new
	case dryOn.MatchString(old) && (!dryOn.MatchString(new) || strings.Contains(old, "=1") && strings.Contains(new, "=0") || strings.Contains(strings.ToLower(old), "true") && strings.Contains(strings.ToLower(new), "false")):
		return "switches its dry run off"
	}
	return ""
}

// runsFile: d runs the file f (./f, bash f, sh f, f by path).
func runsFile(d *Cmd, f string) bool {
	clean := func(p string) string { return strings.TrimPrefix(p, "./") }
	f = clean(f)
	if clean(d.Raw) == f {
		return true
	}
	if (callfacts.IsShell(d.Name) || callfacts.IsInterpreter(d.Name)) && len(d.Pos) > 0 && clean(d.Pos[0]) == f {
		return true
	}
	return false
}

func fedTextRules() []Rule {
	return []Rule{
		cmdRule("external.systems:session-upload", Ask, "A file-transfer console's script that uploads (lftp -e 'mirror -R public/ /htdocs', smbclient -c 'put report.pdf', a here-document or a batch file the line wrote fed to sftp): it publishes files on the server others fetch from; downloads, listings and mirror --dry-run stay allowed",
			callfacts.FileSessionTools(),
			func(e *Env, c *Cmd) string {
				s := sessionScript(c)
				if s == "" || onlyHelp(c) {
					return ""
				}
				for _, p := range c.Pos {
					if isLocalEndpoint(p) {
						return ""
					}
				}
				if u := sessionUpload(s); u != "" {
					return c.Name + " uploads to the server: " + u
				}
				return ""
			},
			[]string{`lftp -e 'mirror -R public/ /htdocs/; quit' ftp.shop.example.com`, `lftp -c 'open ftp.example.net; put release/app.zip'`, "smbclient //nas01/finance -c 'put q4.xlsx'"},
			[]string{`lftp -e 'mirror pub/ ./mirror/; quit' ftp.gnu.org`, `lftp -e 'mirror -R --dry-run public/ /htdocs/; quit' ftp.shop.example.com`, `smbclient //nas01/finance -c 'ls; get q4.xlsx'`}),
		cmdRule("external.systems:edited-script-run", Ask, "A script the line edits with sed -i and then runs, where the edit points it away from a test, sandbox or staging target, at production, or switches its dry run off: the run that follows is a real one against the new target; edits toward a test target or of a version stay allowed",
			[]string{"sed", "gsed"},
			func(e *Env, c *Cmd) string {
				files, olds, news := sedInPlaceEdits(c)
				if len(files) == 0 {
					return ""
				}
				why := ""
				for i := range olds {
					if why = riskyScriptEdit(olds[i], news[i]); why != "" {
						break
					}
				}
				if why == "" {
					return ""
				}
				for i := range e.F.Commands {
					d := &e.F.Commands[i]
					for _, f := range files {
						if runsFile(d, f) {
							return "sed edits " + f + " (" + why + ") and the line runs it"
						}
					}
				}
				return ""
			},
			[]string{`sed -i 's/sandbox.api.example.com/api.example.com/' scripts/sync.sh && ./scripts/sync.sh`, `sed -i 's/DRY_RUN=1/DRY_RUN=0/' ops/purge.sh && bash ops/purge.sh`, `sed -i 's/ENV=staging/ENV=production/' deploy/migrate.sh && sh deploy/migrate.sh`},
			[]string{`sed -i 's/api.example.com/sandbox.api.example.com/' scripts/sync.sh && ./scripts/sync.sh`, `sed -i 's/VERSION=1.2/VERSION=1.3/' scripts/build.sh && ./scripts/build.sh`, `sed -i 's/sandbox/api/' scripts/sync.sh`}),
	}
}
