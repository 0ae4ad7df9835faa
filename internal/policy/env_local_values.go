package policy

import (
	"strings"
)

// envLocalValues: p is an env file of the project written with text the
// line shows (a here-document, echo/printf; a Write of a whole file stays
// denied) where every
// setting is a local or plain development value — a port, a flag, a log
// level, a URL of this machine (DATABASE_URL=postgres://…@localhost). That
// is the project's local set-up, not a secret: an edit of the project. An
// overwrite (>) must make a new file (one on disk holds the user's
// secrets); an append adds without losing anything. A real-looking value
// (a key, a remote URL, a word the table does not know) keeps the denial.
func envLocalValues(e *Env, p PathRef) bool {
	if !under(p.Path, e.F.Project) || strings.Contains(e.F.Command, "$(") || strings.Contains(e.F.Command, "`") || strings.Contains(e.F.Command, "<(") {
		return false
	}
	var texts []string
	switch p.Via {
	case ">", ">>", "tee":
		for _, c := range e.F.Cmds("cat", "tee", "echo", "printf") {
			switch c.Name {
			case "cat", "tee":
				if c.Heredoc != "" {
					texts = append(texts, c.Heredoc)
				} else if len(c.Pos) > 0 || c.Stdin != "" {
					return false // cat of another file, or fed from elsewhere: text not shown
				}
			default:
				texts = append(texts, strings.ReplaceAll(strings.Join(c.Pos, "\n"), `\n`, "\n"))
			}
		}
	default:
		return false
	}
	if p.Via != ">>" && fileExists(p.Path) {
		return false
	}
	n := 0
	for _, t := range texts {
		for _, l := range strings.Split(t, "\n") {
			l = strings.TrimSpace(l)
			if l == "" || strings.HasPrefix(l, "#") {
				continue
			}
			k, v, ok := strings.Cut(strings.TrimPrefix(l, "export "), "=")
			if !ok || !envLocalSetting(strings.TrimSpace(k), strings.Trim(strings.TrimSpace(v), `"'`)) {
				return false
			}
			n++
		}
	}
	return n > 0
}

// envPlainValues are values that hold nothing secret: modes, flags, levels.
var envPlainValues = map[string]bool{"": true, "true": true, "false": true, "yes": true, "no": true, "on": true, "off": true,
	"development": true, "dev": true, "test": true, "testing": true, "local": true, "debug": true, "info": true, "warn": true,
	"warning": true, "error": true, "trace": true, "verbose": true}

func envLocalSetting(k, v string) bool {
	if k == "" || strings.ContainsAny(k, " \t$") {
		return false
	}
	u := strings.ToUpper(k)
	for _, w := range []string{"TLS", "SSL", "VERIFY", "INSECURE", "UNAUTHORIZED", "PROXY", "CA_", "CERT"} {
		if strings.Contains(u, w) {
			return false // NODE_TLS_REJECT_UNAUTHORIZED=0: a weakened check, not a local value
		}
	}
	if strings.Contains(v, "://") || strings.HasPrefix(strings.ToLower(v), "localhost") || strings.HasPrefix(v, "127.") {
		return isLocalEndpoint(v) // DATABASE_URL=postgres://postgres:postgres@localhost:5432/app_dev
	}
	if secretName(k) {
		return v == "" // API_KEY= : left for the user to fill in
	}
	if envPlainValues[strings.ToLower(v)] {
		return true
	}
	for _, r := range v {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true // PORT=3000
}
