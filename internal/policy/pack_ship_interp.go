package policy

import (
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// interpShipScript: the script file an interpreter runs (python3
// tools/upload.py, node scripts/deploy-commands.js, ruby bin/publish.rb),
// for deployScript to read its name as it reads ./deploy.sh's: a script
// named for shipping or changing what runs elsewhere, whose text is not
// on disk to read, asks like a shell script so named (a script on disk is
// read and judged by what it runs). "" for code given inline (-c, -e: a
// payload), a module (-m), help, or an operand that is no script file.
func interpShipScript(c *Cmd) string {
	if c.Payload != "" || len(c.Pos) == 0 || !callfacts.IsInterpreter(c.Name) || c.Has("--help", "-h") {
		return ""
	}
	p := c.Pos[0]
	if optionBefore(c.Args, p) || strings.ContainsAny(p, " \t;|&$") {
		return ""
	}
	switch strings.ToLower(path.Ext(p)) {
	case ".py", ".rb", ".pl", ".js", ".mjs", ".cjs", ".ts", ".lua", ".php":
	default:
		return ""
	}
	for _, a := range c.Args {
		if _, v, ok := strings.Cut(a, "="); ok {
			a = v
		}
		if a != p && !strings.HasPrefix(a, "-") && (devName(a) || callfacts.LabTarget(a, nil) && !callfacts.ThisMachine(a)) {
			return "" // --site lab-1, --env dev: the developer's own target
		}
	}
	return p
}

// interpShipName: p when the script's name holds a deploy-task word
// (deploy, upload, push, publish) or a send-script one (transmit) and no
// local-task word (remoteops.txt); change-script's words (flash, uplink,
// restart) stay the developer's own tool's when an interpreter runs it.
func interpShipName(p string) string {
	base := strings.ToLower(p[strings.LastIndexByte(p, '/')+1:])
	if i := strings.IndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	ship, stay, send := opsList("deploy-task"), opsList("local-task"), opsList("send-script")
	hit := ""
	for _, w := range wordsOf(base) {
		if stay[w] {
			return ""
		}
		if ship[w] || send[w] {
			hit = p
		}
	}
	return hit
}
