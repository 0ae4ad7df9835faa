package callfacts

import (
	_ "embed"
	"net"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// downgradeText lists, as data, the commands and environment that switch
// off a security check: TLS verification, a package index's integrity,
// the system's trusted CAs and proxy, antivirus (downgrade.txt).
//
//go:embed downgrade.txt
var downgradeText string

// envDowngrade is one $VARIABLE line of downgrade.txt.
type envDowngrade struct {
	level string
	name  string // upper case
	vals  wordSet
}

type downgradeTable struct {
	cmds map[string][]wordRule // kind: the level
	env  []envDowngrade
	// envRE finds an assignment to one of env's variables: VAR=value
	// before a command, export VAR=…, env VAR=…, PowerShell's $env:VAR=…
	envRE *regexp.Regexp
}

var downgrades = sync.OnceValue(func() *downgradeTable {
	t := &downgradeTable{}
	var cmdLines []datatable.Line
	names := map[string]bool{}
	datatable.Must("downgrade.txt", downgradeText, 2, func(l datatable.Line) error {
		f := l.Fields
		if v, ok := strings.CutPrefix(f[1], "$"); ok {
			d := envDowngrade{level: f[0], name: strings.ToUpper(v), vals: wordSet{exact: map[string]bool{}}}
			for _, w := range f[2:] {
				for _, a := range strings.Split(w, "|") {
					switch {
					case a == `""`:
						d.vals.exact[""] = true
					case strings.HasSuffix(a, "*"):
						d.vals.prefixes = append(d.vals.prefixes, strings.ToLower(strings.TrimSuffix(a, "*")))
					default:
						d.vals.exact[strings.ToLower(a)] = true
					}
				}
			}
			t.env = append(t.env, d)
			if !names[d.name] {
				names[d.name] = true
			}
			return nil
		}
		cmdLines = append(cmdLines, l)
		return nil
	})
	t.cmds = parseWords(cmdLines, true)
	var alts []string
	for n := range names {
		alts = append(alts, regexp.QuoteMeta(n))
	}
	sort.Strings(alts)
	t.envRE = regexp.MustCompile(`(?i)(?:^|[\s;&|(:])(` + strings.Join(alts, "|") + `)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s;&|)]*))`)
	return t
})

// Downgrade is how c switches off a security check by downgrade.txt: the
// level ("deny" or "ask") and why; "" when it does not.
func (c *Cmd) Downgrade() (level, why string) {
	r := matchWords(downgrades().cmds[c.Name], c)
	if r == nil || r.kind == "allow" {
		return "", ""
	}
	return r.kind, c.Name + " " + strings.Join(c.Args, " ") + " switches off a security check"
}

// DowngradeTools are the programs downgrade.txt names at level ("deny"
// or "ask").
func DowngradeTools(level string) []string {
	var out []string
	for n, rules := range downgrades().cmds {
		for _, r := range rules {
			if r.kind == level {
				out = append(out, n)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

// EnvDowngrade finds in a command line an environment variable set to a
// value that switches off a check (NODE_TLS_REJECT_UNAUTHORIZED=0,
// npm_config_registry=http://…): the level, the variable and its value.
// A registry or index over plain http to a public address given as a
// bare IP is deny: nothing vouches for what it serves.
func EnvDowngrade(line string) (level, name, value string) {
	if !strings.Contains(line, "=") {
		return "", "", ""
	}
	t := downgrades()
	for _, m := range t.envRE.FindAllStringSubmatch(line, 8) {
		n, v := strings.ToUpper(m[1]), m[2]+m[3]+m[4]
		lv := strings.ToLower(v)
		for _, d := range t.env {
			if d.name != n || !(d.vals.exact[lv] || lv != "" && wordIn(d.vals, lv)) {
				continue
			}
			l := d.level
			if l == "ask" && PlainHTTPToPublicIP(lv) {
				l = "deny"
			}
			if l == "allow" {
				break
			}
			if level == "" || l == "deny" && level != "deny" {
				level, name, value = l, n, v
			}
			break
		}
	}
	return level, name, value
}

// PlainHTTPToPublicIP reports whether u is an http:// URL whose host is a
// bare public IP address.
func PlainHTTPToPublicIP(u string) bool {
	if !strings.HasPrefix(strings.ToLower(u), "http://") {
		return false
	}
	p, err := url.Parse(u)
	if err != nil {
		return false
	}
	ip := net.ParseIP(p.Hostname())
	return ip != nil && !ip.IsPrivate() && !ip.IsLoopback() && !ip.IsLinkLocalUnicast()
}

// LocalHost reports whether host is this machine or a private address.
func LocalHost(host string) bool {
	host = strings.ToLower(host)
	if host == "localhost" || strings.HasSuffix(host, ".localhost") || strings.HasSuffix(host, ".local") || strings.HasSuffix(host, ".internal") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && (ip.IsPrivate() || ip.IsLoopback())
}
