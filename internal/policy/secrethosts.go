package policy

import (
	_ "embed"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// secretHostsText lists, as data, which domains a credential belongs to
// by a word of its variable's name (secrethosts.txt): SLACK_BOT_TOKEN
// may go to slack.com and its subdomains, and nowhere else.
//
//go:embed secrethosts.txt
var secretHostsText string

// secretHost is one line of secrethosts.txt.
type secretHost struct {
	domains    []string
	selfHosted bool     // people run it on their own hosts too (github.acme.com)
	labels     []string // first host labels its own servers go by (Jenkins at ci.acme.com)
}

var secretHosts = sync.OnceValue(func() map[string]secretHost {
	m := map[string]secretHost{}
	datatable.Must("secrethosts.txt", secretHostsText, 2, func(l datatable.Line) error {
		var h secretHost
		for _, d := range l.Fields[1:] {
			switch {
			case d == "self-hosted":
				h.selfHosted = true
			case strings.HasPrefix(d, "labels="):
				h.labels = strings.Split(strings.ToLower(d[len("labels="):]), ",")
			case !strings.Contains(d, ".") || strings.ContainsAny(d, "/*:"):
				return l.Errorf("%q: a domain (slack.com), not a URL or a pattern", d)
			default:
				h.domains = append(h.domains, strings.ToLower(d))
			}
		}
		m[strings.ToLower(l.Fields[0])] = h
		return nil
	})
	return m
})

// belongsTo reports whether a secret named name may go to host: this
// machine; a domain secrethosts.txt gives a word of its name; or, for a
// word the table does not list (or a self-hosted service's), a host
// naming the secret's service (an unknown host named by a variable of
// the same service counts).
func belongsTo(name, host string) bool {
	if ownHost(host) {
		return true
	}
	h := strings.ToLower(host)
	if foreignHost(h) {
		return false // vt-mirror.ngrok.io, acme.service-now.com.sso-verify.net: a person's host, whatever its name says
	}
	table := secretHosts()
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '_' || r == '-' }) {
		sh, listed := table[w]
		if listed && !strings.HasPrefix(h, "$") {
			for _, d := range sh.domains {
				if h == d || strings.HasSuffix(h, "."+d) {
					return true
				}
			}
			if !sh.selfHosted {
				continue
			}
			if hostLabelIs(h, sh.labels) {
				return true // $JENKINS_API_TOKEN to ci.acme.com: the service's own server by the name it goes by
			}
		}
		s, ok := serviceAliases[w]
		if !ok {
			if len(w) == 2 && !genericWords[w] && abbreviates(w, h) {
				return true // $GS_PASS to geoserver.x, $MQ_PASS to mq-prod-1.x: the service's own initials
			}
			if len(w) < 3 || genericWords[w] {
				continue
			}
			s = w
		}
		if strings.Contains(h, s) {
			return true
		}
	}
	return false
}

// hostLabelIs: host's first label is one of labels, alone or followed
// by a dash or a digit (ci, ci-2, ci2).
func hostLabelIs(host string, labels []string) bool {
	first, _, _ := strings.Cut(host, ".")
	for _, l := range labels {
		if rest, ok := strings.CutPrefix(first, l); ok && (rest == "" || rest[0] == '-' || rest[0] >= '0' && rest[0] <= '9') {
			return true
		}
	}
	return false
}

// abbreviates reports whether the two letters ab stand for a name in
// host: a label or a word of one is ab itself (mq-prod-1), or begins
// with a and has b later in it (geoserver for GS). Only for words
// secrethosts.txt does not list: a listed service goes to its own
// domains only.
func abbreviates(ab, host string) bool {
	for _, t := range strings.FieldsFunc(host, func(r rune) bool { return r == '.' || r == '-' || r == '_' }) {
		if t == ab || len(t) >= 4 && t[0] == ab[0] && strings.IndexByte(t[1:], ab[1]) >= 0 {
			return true
		}
	}
	return false
}

// personalHost: a host under a domain anyone gets for themselves in
// minutes (a tunnel, dynamic DNS, free app hosting; policy/remoteops.txt
// personal-host): what is sent there reaches a person.
func personalHost(h string) bool {
	if strings.IndexByte(h, '.') < 0 {
		return false
	}
	hosts := opsList("personal-host")
	for d := h; ; {
		if hosts[d] {
			return true
		}
		i := strings.IndexByte(d, '.')
		if i < 0 {
			return false
		}
		d = d[i+1:]
	}
}

// embedsDomain: a look-alike that carries a whole domain as the labels
// of another (acme.service-now.com.sso-verify.net, api.github.com.x.io):
// a top-level label (com, net, org, io) with two or more labels after it.
// acme.com.au (one label after) is a country's second level.
func embedsDomain(h string) bool {
	labels := strings.Split(h, ".")
	for i, l := range labels[:max(len(labels)-2, 0)] {
		if i > 0 && topLabels[l] {
			return true
		}
	}
	return false
}

var topLabels = map[string]bool{"com": true, "net": true, "org": true, "io": true}

// foreignHost: a host no service's credential belongs to by its name: a
// personal host or a look-alike.
func foreignHost(h string) bool {
	return personalHost(h) || embedsDomain(h)
}

// corpHost: a name under a company's internal zone (zabbix.corp.example.com,
// op-connect.int.acme.io): a label corp, internal, intranet or int before
// the registered domain. Plain http there stays inside the company's
// network, as for .internal names.
func corpHost(h string) bool {
	labels := strings.Split(h, ".")
	for i, l := range labels[:max(len(labels)-2, 0)] {
		if i > 0 && (l == "corp" || l == "internal" || l == "intranet" || l == "int" || l == "intra") {
			return true
		}
	}
	return false
}
