package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// A program warden has no table for, handed another machine's API by URL
// and a key to it (dainstall --apiurl https://interviews.example.org
// --apikey "$DA_KEY" pkg, mytool-deploy --server-url … --token …), whose
// own name or first word is an act (install, deploy, upload, publish,
// push, import, sync): the package, site or data goes onto that server,
// which others use. The key on the line says it is a real account's
// server; a URL on this machine, a private address or a host named
// dev/test/sandbox is the user's own, and --help/--dry-run say nothing.

// apiKeyActs are the acts a client's name or first word says.
var apiKeyActs = []string{"install", "deploy", "upload", "publish", "push", "import", "sync", "provision", "release"}

// apiURLOpt: an option whose value names the API's address.
func apiURLOpt(k string) bool {
	k = strings.ToLower(strings.TrimLeft(k, "-"))
	return k == "apiurl" || k == "api-url" || k == "api_url" || k == "server-url" || k == "server_url" || k == "base-url" || k == "endpoint" || k == "url" || k == "server" || k == "host-url"
}

// apiKeyOpt: an option whose value is the API's key or token.
func apiKeyOpt(k string) bool {
	k = strings.ToLower(strings.TrimLeft(k, "-"))
	return k == "apikey" || k == "api-key" || k == "api_key" || k == "token" || k == "api-token" || k == "access-token" || k == "key"
}

// apiKeyClientAct is the act and the host of c's call, "" when c is no
// such call.
func apiKeyClientAct(c *Cmd) (act, host string) {
	if callfacts.Known(c.Name) || c.DryRun() || onlyHelp(c) {
		return "", ""
	}
	keyed := false
	for i, a := range c.Args {
		k, v, eq := strings.Cut(a, "=")
		if !strings.HasPrefix(k, "-") {
			continue
		}
		if !eq && i+1 < len(c.Args) {
			v = c.Args[i+1]
		}
		switch {
		case apiKeyOpt(k) && v != "":
			keyed = true
		case apiURLOpt(k) && strings.Contains(v, "://") && host == "":
			if apiHostLocal([]string{v}) || !sharedHosts([]string{v}) {
				return "", ""
			}
			host = urlHost(v)
		}
	}
	if !keyed || host == "" {
		return "", ""
	}
	name := strings.ToLower(c.Name)
	for _, w := range apiKeyActs {
		if strings.HasSuffix(name, w) || len(c.Pos) > 0 && strings.EqualFold(c.Pos[0], w) {
			return w, host
		}
	}
	return "", ""
}

func apiKeyClientRule() Rule {
	return Rule{ID: "external.systems:apikey-client-change", Mode: Ask, Tools: shellTools, On: On(0).OrText("--api", "-apikey", "-token", "--key"),
		Desc: "A program warden has no table for, given another machine's API URL and a key, whose name or first word installs, deploys, uploads, publishes, pushes or imports (dainstall --apiurl … --apikey …): the package or data goes onto a server others use; this machine, private addresses and dev/test hosts are left alone",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				if act, host := apiKeyClientAct(c); act != "" {
					return c.Name + " " + act + "s onto " + host + " with its API key: " + c.String()
				}
			}
			return ""
		},
		Catch: []string{`wpdeploy --api-url https://cms.example.org/wp-json --api-key "$WP_KEY" theme.zip`,
			`nexus-upload --server-url https://repo.corp.example.net --token $NEXUS_TOKEN dist/app-1.2.tgz`,
			`jupyterhub-publish --url https://hub.example.edu --token "$HUB_TOKEN" notebooks/`,
			`grafana-import --url https://grafana.example.com --key $GRAFANA_KEY dashboards/*.json`},
		Allow: []string{`dainstall --apiurl http://localhost --apikey "$DA_KEY" docassemble-demo`, `wpdeploy --api-url https://cms.dev.example.org --api-key "$K" theme.zip`,
			`nexus-upload --help`, `grafana-import --url https://grafana.example.com --key $K --dry-run dashboards/x.json`,
			`mytool-list --url https://api.example.com --token $T`, `dainstall --apiurl https://10.0.0.5 --apikey "$K" pkg`},
	}
}
