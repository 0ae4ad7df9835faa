package policy

import (
	"cmp"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Files edited on another host. A payload run over ssh that writes a
// file there (sed -i, a >> append, cp over, tee, a heredoc into a config)
// changes a server others rely on — a web root's .htaccess, a zone file,
// a service's config — whatever the program. Deletes there have their
// own rule (core.destroy:remote-delete); a file received whole from
// the pipe (tar c … | ssh h 'cat > src.tgz') is a copy, like scp, but
// text the line writes there (ssh h 'cat > targets' <<EOF) is an edit; scratch directories there
// (/tmp, the user's scratch) and /dev/null are left out, and containers
// (docker/kubectl exec) too: they are most often a local dev stack.

// remoteEdit: the first file a command run through ssh writes outside
// the other host's scratch, "" for none.
func remoteEdit(e *Env, c *Cmd) string {
	if !sshPayload(c) {
		return ""
	}
	keep := func(p string) bool {
		return p != "" && p != "&1" && p != "&2" && !strings.HasPrefix(p, "/dev/") && !tempDir(p) &&
			!callfacts.UserScratch(p, e.F.Home) && !callfacts.RemoteScratch(c, p, e.F.Home)
	}
	// judged as the other host reads the path: a relative one resolved
	// against this machine's cwd would look like temp when the project
	// sits under /tmp
	if c.Effect == callfacts.EffectWrite {
		for _, t := range c.Targets {
			if there := writtenThere(e, t); keep(there) {
				return there
			}
		}
	}
	for _, r := range e.F.Redirects {
		there := cmp.Or(r.Elsewhere, r.Target)
		if r.Cmd != c.Name || !keep(there) || r.Op != ">" && r.Op != ">>" && r.Op != ">|" {
			continue
		}
		if c.Name != "cat" || r.Op == ">>" {
			return there
		}
		if sshFedText(e) && !sshDevHost(e, c) {
			return there // ssh glider-base 'cat > targets' <<EOF: text the line wrote, not a file copied whole
		}
	}
	return ""
}

// writtenThere is the target t of a command run on another host as the
// line wrote it (PathRef.Elsewhere): t itself is read against this
// machine's cwd (ssh h 'sed -i … app.ini' edits app.ini in the login
// directory there, not the project's).
func writtenThere(e *Env, t string) string {
	for _, p := range e.F.Paths {
		if p.Path == t && p.Elsewhere != "" {
			return p.Elsewhere
		}
	}
	return t
}

// sshPayload: c runs on another host through ssh (not in a container).
func sshPayload(c *Cmd) bool {
	for _, w := range c.Wrappers {
		if w == "ssh" || w == "autossh" {
			return true
		}
	}
	return false
}

func remoteFileEditRules() []Rule {
	return []Rule{{
		ID: "core.net:remote-file-edit", Mode: Ask, Tools: shellTools,
		Desc: "A file written on another host through ssh (sed -i, >> or > into a file, cp or tee over a config there): it changes a server others rely on; its scratch directories excepted",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				if t := remoteEdit(e, c); t != "" {
					return c.Name + " writes " + t + " on another host through ssh: " + c.String()
				}
			}
			return ""
		},
		Catch: []string{"ssh web1 'sed -i s/8080/9090/ /srv/app/config.ini'", "ssh deploy@app2 \"echo 'ALLOWED=*' >> app/.env\"", "ssh -p 2222 u@h 'cp nginx.conf.new /etc/nginx/sites-enabled/site'", "ssh ops@db2 'printf x | sudo tee /etc/postgresql/pg_hba.conf'"},
		Allow: []string{"ssh web1 'cat /srv/app/config.ini'", "ssh web1 'grep -c ERROR /var/log/app.log > /tmp/count'", "ssh h 'ls -la ~/public_html'", "tar czf - src | ssh build01 'cat > src.tgz'", "sed -i s/a/b/ config.ini", "docker exec web sh -c 'echo x >> /app/log.txt'"},
	}}
}

// sshFedText: an ssh on the line runs a command there and is fed text
// the line itself shows (a here-document, a here-string, echo/printf
// piped in): cat > FILE there writes that text, an edit of the file, not
// a copy of a local file or archive received whole.
func sshFedText(e *Env) bool {
	for _, s := range e.F.Cmds("ssh", "autossh") {
		if s.Heredoc != "" && s.Payload != "" {
			return true
		}
	}
	return false
}
