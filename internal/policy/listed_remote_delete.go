package policy

import (
	"slices"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// A bulk delete on a remote service fed by the same program's listing:
// wp post delete $(wp post list --post_type=obituary --format=ids
// --url=https://www.example-home.com) --force --url=https://…. The ids
// the listing prints are every record the filter matches, and the delete
// takes them all at once: what is lost is the listing's output, which the
// line does not show. Read by verbs, whatever the program: the outer
// command's subcommand deletes (delete, rm, remove, destroy, purge,
// trash), a command substitution in its arguments runs the same program
// with a listing verb (list, ls, ids, search, query, find), and the line
// names the service it acts on (a URL, or a target option with a value
// that is not this machine). On production — a production word, or a
// public site's address (a live site others read) — it is denied; on a
// place the line does not show as production it asks. Local engines
// (docker rm $(docker ps -aq)) name no remote service and stay with
// their own rules; dev, test, staging and local targets are left alone.

// nonProdPlace: a target named as a dev, test, staging or local place.
var nonProdPlace = re(`(?i)(^|[^a-z])(dev|devel|development|test|testing|staging|stage|stg|qa|uat|sandbox|local|demo|preview)([^a-z]|$)`)

var listedDeleteVerbs = map[string]bool{"delete": true, "rm": true, "remove": true, "destroy": true, "purge": true, "trash": true, "del": true, "erase": true}
var listedListVerbs = map[string]bool{"list": true, "ls": true, "ids": true, "search": true, "query": true, "find": true}

// listedRemoteDelete: why c deletes, on a remote service, what the same
// program's listing prints, and whether the line names production ('d')
// or not ('a'); 0 for none.
func listedRemoteDelete(e *Env, c *Cmd) (byte, string) {
	if c.Captured || c.Depth > 0 || !strings.Contains(strings.Join(c.Args, " "), "$(") || onlyHelp(c) || e.dryRun(c) {
		return 0, ""
	}
	del := ""
	for i, p := range c.Pos {
		if i > 2 {
			break
		}
		if listedDeleteVerbs[strings.ToLower(p)] {
			del = p
			break
		}
	}
	if del == "" {
		return 0, ""
	}
	var lister *Cmd
	for i := range e.F.Commands {
		d := &e.F.Commands[i]
		if d == c || d.Name != c.Name || !d.Captured {
			continue
		}
		for j, p := range d.Pos {
			if j <= 2 && listedListVerbs[strings.ToLower(p)] {
				lister = d
			}
		}
	}
	if lister == nil {
		return 0, ""
	}
	target := ""
	for _, d := range []*Cmd{c, lister} {
		if t := serviceTarget(d); t != "" {
			target = t
		}
	}
	if target == "" || nonProdPlace.MatchString(target) || callfacts.LabTarget(target, nil) {
		return 0, ""
	}
	why := c.Name + " " + strings.Join(c.Pos[:slices.Index(c.Pos, del)+1], " ") + " deletes every record " + c.Name + " lists, at once, on " + target
	if prodWord.MatchString(target) || prodMarker.MatchString(target) || publicSite(target) {
		return 'd', why + ", a live service: " + c.String()
	}
	return 'a', why + ": " + c.String()
}

// serviceTarget: the remote place c names (a URL, or a value of a
// target option that is not this machine), "" for none.
func serviceTarget(c *Cmd) string {
	opts := opsList("prod-option-any")
	for i, a := range c.Args {
		k, v, hasV := strings.Cut(a, "=")
		if !hasV && i+1 < len(c.Args) && strings.HasPrefix(a, "-") {
			v = c.Args[i+1]
		}
		switch {
		case strings.Contains(a, "://") && !strings.HasPrefix(a, "-"):
			v = a
		case strings.HasPrefix(a, "-") && opts[k] && v != "" && !strings.HasPrefix(v, "-"):
		default:
			continue
		}
		if h := targetHost(v); h != "" && (callfacts.LocalHost(h) || lanHost(h)) || localName(v) {
			continue
		}
		return v
	}
	return ""
}

// targetHost: the lower-cased host of a URL or a bare host name.
func targetHost(v string) string {
	return strings.ToLower(urlHost(strings.Trim(v, `"'`)))
}

// publicSite: v is the address of a site on the public internet (an
// http(s) URL whose host has a public top-level domain and no dev, test
// or staging word): the live site its visitors read.
func publicSite(v string) bool {
	if !strings.Contains(v, "://") {
		return false
	}
	h := targetHost(v)
	dot := strings.LastIndexByte(h, '.')
	if dot < 0 || lanHost(h) || callfacts.LocalHost(h) || nonProdPlace.MatchString(h) || callfacts.LabTarget(h, nil) {
		return false
	}
	for _, l := range strings.Split(h, ".") {
		if l == "corp" || l == "internal" || l == "intranet" || l == "intra" || l == "int" || l == "lan" {
			return false // inventory.corp.acme.net: a company's inside, not its public site
		}
	}
	switch tld := h[dot+1:]; tld {
	case "com", "org", "net", "io", "co", "uk", "us", "ca", "au", "de", "fr", "nl", "eu", "info", "biz", "shop", "store", "church", "edu", "gov":
		return !strings.Contains(h, "example.") && !strings.Contains(h, "staging") && !strings.Contains(h, "stage.")
	}
	return false
}

func listedRemoteDeleteRules() []Rule {
	mk := func(id string, mode Mode, want byte, desc string, catch, allow []string) Rule {
		return Rule{ID: id, Mode: mode, Tools: shellTools, Desc: desc, Catch: catch, Allow: allow, On: Any("any program's delete may be fed its own listing; the reading runs only when the line has a command substitution"),
			Match: func(e *Env) string {
				if !strings.Contains(e.F.Command, "$(") {
					return "" // the trigger: a command substitution on the line
				}
				for i := range e.F.Commands {
					if v, why := listedRemoteDelete(e, &e.F.Commands[i]); v == want {
						return why
					}
				}
				return ""
			}}
	}
	return []Rule{
		mk("core.destroy:listed-remote-delete-live", Deny, 'd', "A bulk delete on a live service fed by the same program's listing (wp post delete $(wp post list --format=ids --url=https://www.shop.com) --force): every record the filter matches on production or a public site goes at once, and which ones the line does not show",
			[]string{"wp post delete $(wp post list --post_type=product --format=ids --url=https://www.acme-shop.com) --force --url=https://www.acme-shop.com", "tool records rm $(tool records ls --quiet --server https://api.prod.acme.io) --server https://api.prod.acme.io",
				"wp comment delete $(wp comment list --status=spam --format=ids --url=https://blog.acme-shop.org) --force --url=https://blog.acme-shop.org"},
			[]string{"wp post list --post_type=product --format=ids --url=https://www.acme-shop.com", "wp post delete $(wp post list --post_type=revision --format=ids --url=http://localhost:8080) --force --url=http://localhost:8080",
				"wp post delete $(wp post list --post_type=product --format=ids --url=https://staging.acme-shop.com) --force --url=https://staging.acme-shop.com"}),
		mk("core.destroy:listed-remote-delete", Ask, 'a', "A bulk delete on a remote service fed by the same program's listing (tool items delete $(tool items list --ids --server https://svc.acme.internal)): every record the filter matches goes at once, on a place the line does not show as dev or test",
			[]string{"wp post delete $(wp post list --post_type=page --format=ids --url=https://wp01.acme.corp) --force --url=https://wp01.acme.corp", "wp user delete $(wp user list --role=subscriber --field=ID --url=https://cms.acme.corp) --yes --url=https://cms.acme.corp",
				"wp term delete category $(wp term list category --field=term_id --url=https://wp.shop.acme.corp) --url=https://wp.shop.acme.corp"},
			[]string{"docker rm $(docker ps -aq -f status=exited)", "wp post delete $(wp post list --post_type=revision --format=ids --url=https://dev.acme.test) --force", "tool records ls --quiet --server https://api.acme.internal"}),
	}
}
