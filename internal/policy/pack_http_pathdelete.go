package policy

import (
	"strings"
	"unicode"
)

// apiDeletePathRules: an HTTP request whose URL path names a deletion
// (…/job/x/doDelete, …/index/_delete_by_query, …/items/1/delete) is a
// DELETE by another method.
func apiDeletePathRules() []Rule {
	return []Rule{
		cmdRule("external.systems:api-delete-path", Ask, "An HTTP request by another method whose URL path names a deletion (POST …/job/x/doDelete, …/_delete_by_query, …/users/5/delete) to a host that is not this machine: a DELETE by another name", []string{"curl", "http", "https", "xh", "xhs", "wget", "curlie"},
			func(e *Env, c *Cmd) string {
				hinted := false
				for _, a := range c.Args {
					if strings.Contains(a, "/") && pathDeleteWord(a) != "" {
						hinted = true // the cheap test first: most requests name no deletion
						break
					}
				}
				if !hinted || onlyHelp(c) || onlyLocalURLs(c) || localOnly(c) {
					return ""
				}
				r := e.apiCall(c)
				if r.method == "" && r.body == "" || r.method == "GET" || r.method == "HEAD" || r.method == "OPTIONS" {
					return "" // a plain read: a link to a page named delete is no deletion
				}
				if apiDryRun(r) || apiFormRead(r) {
					return "" // importMode=VALIDATE&importStrategy=DELETE: a check of the deletion (pack_api_dryrun.go)
				}
				if sandboxHosts(r) {
					return "" // sandbox.plaid.com/item/remove: the provider's practice host, whose items are test data (pack_api_safeposts.go)
				}
				for _, u := range r.urls {
					if w := pathDeleteWord(urlPath(u)); w != "" {
						return c.Name + " asks " + urlHost(u) + " to " + w + " (\"" + w + "\" in the URL's path): " + c.String()
					}
				}
				return ""
			},
			[]string{"curl -X POST http://jenkins.example.com/job/deploy-prod/doDelete", "curl -X POST 'https://search.example.com:9200/logs/_delete_by_query' -d '{}'",
				"curl -XPOST https://ci.internal/credentials/store/system/domain/_/credential/tok/doDelete", "http POST https://api.example.com/v1/users/5/delete", "curl -d id=4 https://shop.example.com/cart/removeItem"},
			[]string{"curl https://api.example.com/v1/deleted-items", "curl -X POST https://sandbox.plaid.com/item/remove -d '{}'", "curl -X POST https://api.example.com/v1/items -d '{}'", "curl -X POST http://localhost:9200/logs/_delete_by_query -d '{}'",
				"curl https://docs.example.com/how-to-delete", "curl -X POST https://api.example.com/v1/undelete -d id=3", "wget https://example.com/delete.html"}),
	}
}

// pathDeleteWords are the words of a URL path that ask the server to
// remove what the path names; words split at separators and at a lower
// to upper case change (doDelete, removeItem).
var pathDeleteWords = map[string]bool{"delete": true, "destroy": true, "remove": true, "purge": true, "drop": true, "truncate": true, "wipe": true, "erase": true, "expunge": true}

func pathDeleteWord(p string) string {
	for _, seg := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '_' || r == '-' || r == '.' || r == ':' }) {
		start := 0
		for i, r := range seg {
			if i > 0 && unicode.IsUpper(r) {
				if w := strings.ToLower(seg[start:i]); pathDeleteWords[w] {
					return w
				}
				start = i
			}
		}
		if w := strings.ToLower(seg[start:]); pathDeleteWords[w] {
			return w
		}
	}
	return ""
}

// tempRootPermissionRules: the shared temporary directories themselves (/tmp,
// not what is under it) are the system's: their mode (the sticky bit that
// keeps users from deleting each other's files) and owner are not scratch.
func tempRootPermissionRules() []Rule {
	return []Rule{
		cmdRule("core.destroy:temp-root-permissions", Ask, "Changing the mode or owner of a shared temporary directory itself (chmod -R 777 /tmp, chown -R nobody /var/tmp, chmod 755 /dev/shm): the sticky bit and owner every user and service relies on; what is under it stays scratch", []string{"chmod", "chown", "chgrp", "setfacl", "chattr"},
			func(e *Env, c *Cmd) string {
				for _, p := range c.Pos {
					switch strings.TrimRight(p, "/") {
					case "/tmp", "/var/tmp", "/dev/shm", "/private/tmp":
						return c.Name + " changes " + p + " itself, the temporary directory every user shares: " + c.String()
					}
				}
				return ""
			},
			[]string{"chmod -R 777 /tmp", "chown -R nobody:nogroup /tmp", "chmod 755 /var/tmp/", "sudo chmod 0777 /dev/shm", "setfacl -R -m u:app:rwx /tmp"},
			[]string{"chmod -R 777 /tmp/build", "chown -R me /tmp/cache", "chmod 600 /tmp/key", "ls -ld /tmp", "stat /tmp"}),
	}
}
