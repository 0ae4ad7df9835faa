package policy

import (
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"
)

// secret stores read over HTTP (a Vault secret path, 1Password
// Connect, Doppler, Infisical, Akeyless, Key Vault, Secret Manager): the
// value printed into the conversation asks, as the stores' CLIs do; a
// script console's POST (Jenkins /scriptText) judged by the Groovy it
// carries. The paths and words are data (policy/remoteops.txt
// api-secret-path, api-secret-target, api-script-path, script-destroy,
// script-read).

// secretPathPattern is api-secret-path's patterns as one expression:
// one pass over a URL, not one per pattern (every curl meets it).
var secretPathPattern = sync.OnceValue(func() *regexp.Regexp {
	var alts []string
	for _, p := range opsWords("api-secret-path") {
		alts = append(alts, strings.ReplaceAll(regexp.QuoteMeta(p), `\*`, `[^/?]+`))
	}
	sort.Strings(alts)
	return regexp.MustCompile("(?:" + strings.Join(alts, "|") + ")")
})

// vaultAPICall: the call goes to a Vault (or OpenBao) server: its token
// header or variable, its port, or a host named for it.
func vaultAPICall(c *Cmd, r apiCall) bool {
	line := strings.ToLower(strings.Join(c.Args, " "))
	if strings.Contains(line, "x-vault-token") || strings.Contains(line, "vault_token") || strings.Contains(line, "bao_token") {
		return true
	}
	for _, u := range r.urls {
		h := strings.ToLower(urlHost(u))
		if urlPort(u) == "8200" || strings.HasPrefix(h, "vault") || strings.Contains(h, ".vault") || strings.Contains(h, "-vault") || strings.HasPrefix(h, "openbao") {
			return true
		}
	}
	return false
}

// vaultSecretPath: a Vault API path that returns a secret's value (not
// sys/, not a LIST, not a token's own lookup or a health check).
func vaultSecretPath(u string) bool {
	p := strings.ToLower(urlPath(u))
	p, q, _ := strings.Cut(p, "?")
	rest, ok := strings.CutPrefix(p, "/v1/")
	if !ok || rest == "" || strings.HasPrefix(rest, "sys/") || strings.Contains(q, "list=true") {
		return false
	}
	if strings.HasPrefix(rest, "auth/token/lookup") || strings.HasSuffix(rest, "/config") || strings.Contains(rest, "/metadata/") || strings.HasSuffix(rest, "/roles") || strings.HasSuffix(rest, "/role") {
		return false
	}
	return true
}

// secretAPIRead says which secret an HTTP read prints, "" when none.
func secretAPIRead(e *Env, c *Cmd) string {
	if onlyHelp(c) || writtenToFile(e, c) {
		return ""
	}
	r := e.apiCall(c)
	if len(r.urls) == 0 || apiHostLocal(r.urls) {
		return ""
	}
	if r.method != "" && r.method != "GET" && r.method != "POST" {
		return ""
	}
	line := strings.ToLower(strings.Join(c.Args, " "))
	for _, w := range opsWords("api-secret-target") {
		if strings.Contains(line, w) {
			return w
		}
	}
	jq, piped := jqFilterAfter(e, c)
	if piped && jq != "" {
		if f := jqSecretField(jq); f != "" {
			return urlHost(r.urls[0]) + urlPath(r.urls[0]) + " (its " + f + " field)"
		}
		for _, u := range r.urls {
			if f := collectionItemField(u, jq); f != "" {
				return urlHost(u) + urlPath(u) + " (its " + f + " field)"
			}
		}
		if namesOnlyFilter(jq) {
			return "" // … | jq length, jq -r '.[].name': counts and names
		}
	}
	for _, u := range r.urls {
		if r.method != "POST" && credentialPath(u) {
			return urlHost(u) + urlPath(u)
		}
	}
	for _, u := range r.urls {
		l := strings.ToLower(u)
		if i := strings.Index(l, "://"); i >= 0 {
			l = l[i+3:]
		}
		if secretPathPattern().MatchString(l) {
			return urlHost(u) + urlPath(u)
		}
		if r.method != "POST" && vaultSecretPath(u) && vaultAPICall(c, r) { // the path first: it rules most URLs out without joining the arguments
			return urlHost(u) + urlPath(u)
		}
	}
	return ""
}

// credentialPath: a URL whose last path segment names a credential
// (…/clients/ID/client-secret, /consumers/c1/key-auth, /v1/credentials,
// /admin/api-keys), or names a collection of them followed by one
// item (/api/secrets/db-pass); a forge's secrets (names only), metadata
// and public halves are no print. The words are data (policy/remoteops.txt
// api-secret-segment, api-secret-collection, api-secret-meta,
// api-secret-names-host).
func credentialPath(u string) bool {
	h := strings.ToLower(urlHost(u))
	if opsList("api-secret-names-host")[h] {
		return false
	}
	p, _, _ := strings.Cut(strings.ToLower(urlPath(u)), "?")
	p, _, _ = strings.Cut(p, "#")
	p = strings.TrimRight(p, "/")
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return false
	}
	last := p[i+1:]
	if opsList("api-secret-segment")[last] {
		return true
	}
	if opsList("api-secret-meta")[last] || strings.ContainsAny(last, "{$") {
		return false
	}
	prev := p[:i]
	if j := strings.LastIndexByte(prev, '/'); j >= 0 {
		return opsList("api-secret-collection")[prev[j+1:]]
	}
	return false
}

// jqPrograms read JSON from a pipe and print the fields their filter names.
var jqPrograms = map[string]bool{"jq": true, "gojq": true, "jaq": true, "yq": true, "fx": true, "jp": true}

// jqFilterAfter: the filter of the jq that c's output is piped into
// (lower case) and whether there is one.
func jqFilterAfter(e *Env, c *Cmd) (string, bool) {
	for j := range e.F.Commands {
		d := &e.F.Commands[j]
		if !jqPrograms[d.Name] || len(d.Upstream) == 0 || d.Upstream[len(d.Upstream)-1] != c.Name {
			continue
		}
		if len(d.Pos) > 0 {
			return strings.ToLower(d.Pos[0]), true
		}
		return "", true
	}
	return "", false
}

// jqSecretField: the credential field a jq filter picks (.data[].key,
// .password, .client_secret), "" when none (policy/remoteops.txt
// api-secret-field).
func jqSecretField(f string) string {
	for _, part := range strings.FieldsFunc(f, func(r rune) bool {
		return !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		if opsList("api-secret-field")[part] {
			return part
		}
		if ws := strings.FieldsFunc(part, func(r rune) bool { return r == '_' || r == '-' }); len(ws) > 1 && opsList("api-secret-field-end")[ws[len(ws)-1]] && !opsList("api-secret-field-not")[ws[0]] && !opsList("api-secret-field-not")[ws[len(ws)-2]] {
			return part // integration_key, webhook_secret, admin_password
		}
	}
	return ""
}

// collectionItemField: a URL whose last path segment is a collection of
// credentials (/keys, /tokens, /api-keys) read through a jq filter that
// picks the item's own value (.results[].key, .[].token): the keys
// themselves printed (a forge's public keys aside, api-secret-names-host).
func collectionItemField(u, jq string) string {
	if opsList("api-secret-names-host")[strings.ToLower(urlHost(u))] {
		return ""
	}
	p, _, _ := strings.Cut(strings.ToLower(urlPath(u)), "?")
	p = strings.TrimRight(p, "/")
	last := p[strings.LastIndexByte(p, '/')+1:]
	if !opsList("api-secret-collection")[last] {
		return ""
	}
	if prev := strings.TrimSuffix(p, "/"+last); opsList("api-secret-field-not")[prev[strings.LastIndexByte(prev, '/')+1:]] || strings.Contains(last, "public") {
		return "" // /ssh/keys, /gpg/keys, /public/keys: public halves
	}
	item := strings.TrimSuffix(last, "s")
	if i := strings.LastIndexAny(item, "-_"); i >= 0 {
		item = item[i+1:] // api-keys: key
	}
	for _, part := range strings.FieldsFunc(jq, func(r rune) bool {
		return !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		if part == item || part == "value" {
			return part
		}
	}
	return ""
}

// namesOnlyFilter: a jq filter that prints a count, keys or names, no
// values (length, keys, .[].name, map(.id)).
func namesOnlyFilter(f string) bool {
	f = strings.TrimSpace(strings.Trim(f, `"'`))
	switch f {
	case "length", "keys", "keys[]", "type", "map(.name)", "map(.id)", "[.[].name]", ".[].name", ".[].id", ".data[].name", ".data[].id", ".items[].name", ".data|length", ". | length", ".data | length", ".[] | .name":
		return true
	}
	return strings.HasSuffix(f, "| length") || strings.HasSuffix(f, "|length") || strings.HasSuffix(f, "[].name") || strings.HasSuffix(f, "[].id") || strings.HasSuffix(f, ".total") || strings.HasSuffix(f, ".count")
}

// scriptCall: a method called in a script (name( or name {).
var scriptCall = re(`([A-Za-z_]\w*)\s*[({]`)

// scriptConsole says what a POST's script does when the call goes to a
// script console (api-script-path): "destroy", "change", "read", or ""
// when it is no script-console call.
func scriptConsole(r apiCall) string {
	paths := opsList("api-script-path")
	hit := false
	for _, u := range r.urls {
		p, _, _ := strings.Cut(strings.ToLower(urlPath(u)), "?")
		for _, seg := range strings.Split(p, "/") {
			hit = hit || paths[seg]
		}
		for w := range paths {
			hit = hit || strings.Contains(w, "/") && strings.Contains(p, w)
		}
	}
	if !hit {
		return ""
	}
	script, found := "", false
	for _, kv := range strings.Split(r.body, "&") {
		if k, v, ok := strings.Cut(kv, "="); ok && strings.EqualFold(strings.TrimSpace(k), "script") {
			script, found = v, true
		}
	}
	if !found {
		return "" // no script= field: an ordinary call to a path named script
	}
	if t := strings.TrimSpace(script); t == "" || strings.HasPrefix(t, "@") || strings.HasPrefix(t, "<") || strings.Contains(t, "$(") || strings.Contains(t, "`") || strings.HasPrefix(t, "$") {
		return "change" // the script is in a file or a variable: what it does is unseen
	}
	return scriptKind(script)
}

// scriptKind says what a console script does: "off" when it switches
// the server's security off (script-off), "destroy" when a call deletes,
// "change" when a call changes or the script touches stored secrets
// (script-secret: it prints them), "read" when every call only looks.
func scriptKind(script string) string {
	l := strings.ToLower(script)
	for _, w := range opsWords("script-off") {
		if strings.Contains(l, w) {
			return "off"
		}
	}
	destroy, read := opsList("script-destroy"), opsList("script-read")
	out := "read"
	for _, w := range opsWords("script-secret") {
		if strings.Contains(l, w) {
			out = "change"
		}
	}
	for _, m := range scriptCall.FindAllStringSubmatchIndex(script, -1) {
		name := script[m[2]:m[3]]
		if m[2] >= 4 && strings.HasSuffix(script[:m[2]], "new ") || unicode.IsUpper(rune(name[0])) {
			continue // a constructor or a type
		}
		w := actionWords(name)
		if len(w) > 1 && w[0] == "do" {
			w = w[1:] // doDelete, doDisable
		}
		switch {
		case destroy[w[0]]:
			return "destroy"
		case !read[w[0]]:
			out = "change"
		}
	}
	return out
}

func secretStoreAPIRules() []Rule {
	return []Rule{
		cmdRule("external.systems:secret-api-read", Ask, "A secret store's HTTP API read with its value printed into the conversation (a Vault secret or fresh database/cloud credentials, 1Password Connect's item, Doppler's, Infisical's or Akeyless' secrets, Key Vault, Secret Manager, a Kubernetes secret); listings and health checks stay allowed; the paths are data (policy/remoteops.txt api-secret-path)", apiClients,
			func(e *Env, c *Cmd) string {
				if w := secretAPIRead(e, c); w != "" {
					return c.Name + " prints a stored secret from " + w
				}
				return ""
			},
			[]string{`curl -s -H "X-Vault-Token: $VAULT_TOKEN" https://vault.prod.acme.internal:8200/v1/database/creds/readonly-prod`,
				`curl -H "Authorization: Bearer $OP_CONNECT_TOKEN" https://op-connect.corp.example.com:8080/v1/vaults/abc123/items/def456`,
				`curl -s "https://api.doppler.com/v3/configs/config/secrets/download?project=shop&config=prd&format=env" -u "$DOPPLER_TOKEN:"`},
			[]string{`curl -s https://vault.prod.acme.internal:8200/v1/sys/health`, `curl -H "X-Vault-Token: $VAULT_TOKEN" "https://vault.example.com:8200/v1/secret/metadata/app?list=true"`,
				`curl -H "Authorization: Bearer $OP_CONNECT_TOKEN" https://op-connect.corp.example.com:8080/v1/vaults/abc123/items`,
				`curl -s -H "X-Vault-Token: $VAULT_TOKEN" https://vault.example.com:8200/v1/database/creds/ro -o /tmp/creds.json`,
				`curl -s http://127.0.0.1:8200/v1/secret/data/app -H "X-Vault-Token: root"`}),
		cmdRule("external.systems:script-console-destroy", Deny, "A script sent to a CI server's script console (Jenkins /scriptText, jenkins-cli groovy) that deletes (it.delete(), doDelete, deleteDir, wipeOut) or switches its security off (AuthorizationStrategy.Unsecured, NO_AUTHENTICATION); the words are data (policy/remoteops.txt api-script-path, script-destroy, script-off)", append([]string{"jenkins-cli"}, apiClients...),
			func(e *Env, c *Cmd) string {
				if onlyHelp(c) {
					return ""
				}
				if c.Name == "jenkins-cli" && (sub(c) == "groovy" || sub(c) == "groovysh") && c.Heredoc != "" {
					switch scriptKind(c.Heredoc) {
					case "destroy":
						return "jenkins-cli runs a Groovy script that deletes on the Jenkins server"
					case "off":
						return "jenkins-cli runs a Groovy script that switches the Jenkins server's security off"
					}
					return ""
				}
				if !mayMutate(c) {
					return ""
				}
				r := e.apiCall(c)
				if len(r.urls) == 0 || apiHostLocal(r.urls) {
					return ""
				}
				switch scriptConsole(r) {
				case "destroy":
					return c.Name + " sends a script that deletes to the script console at " + urlHost(r.urls[0])
				case "off":
					return c.Name + " sends a script that switches the server's security off to the script console at " + urlHost(r.urls[0])
				}
				return ""
			},
			[]string{`curl -X POST -u "admin:$JENKINS_TOKEN" --data-urlencode 'script=Jenkins.instance.getAllItems(Job.class).each { it.delete() }' https://jenkins.ci.acme.io/scriptText`,
				"java -jar jenkins-cli.jar -s https://ci.example.com/ -auth @/home/dev/.jt groovy = <<'EOF'\nJenkins.instance.setAuthorizationStrategy(new AuthorizationStrategy.Unsecured())\nJenkins.instance.save()\nEOF",
				`curl -u admin:$T -d 'script=Jenkins.instance.getItemByFullName("api").builds.each { it.doDelete() }' https://ci.example.com/scriptText`},
			[]string{`curl -s -X POST -u "dev:$JENKINS_TOKEN" --data-urlencode 'script=println(Jenkins.instance.queue.items.size())' https://jenkins.ci.acme.io/scriptText`,
				"jenkins-cli -s https://ci.example.com/ groovy = <<'EOF'\nprintln(Jenkins.instance.getAllItems(Job.class).size())\nEOF",
				`curl -X POST -d 'script=Jenkins.instance.getAllItems(Job.class).each { it.delete() }' http://localhost:8080/scriptText`}),
	}
}
