package policy

import (
	"strings"
	"unicode"
)

// A protection switched off through a setting: an infrastructure
// variable or a chart value (terraform apply -var 'mfa_required=false',
// helm upgrade --set auth.enabled=false, pulumi config set
// encryption false) or an API call that sets one (curl -X PATCH
// …/settings/ssl -d '{"value":"off"}'). The setting's words say what it
// guards; the words are data (policy/remoteops.txt guard-words,
// door-words, open-words, off-values).

// settingWords splits a setting's name into lower-case words at
// punctuation and camelCase: okta_mfa_required → okta mfa required,
// networkPolicy.enabled → network policy enabled (and the joined pair).
func settingWords(k string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(k)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && i > 0 && unicode.IsLower(rs[i-1]):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	// joined neighbours and the whole name: public_access_block, protected_mode
	n := len(out)
	for i := 0; i+1 < n; i++ {
		out = append(out, out[i]+"_"+out[i+1])
		if i+2 < n {
			out = append(out, out[i]+"_"+out[i+1]+"_"+out[i+2])
		}
	}
	return out
}

// settingOff classes a key=value setting: "guard" (an account's or its
// data's protection off), "door" (a service's access check off), "open"
// (an opening switched on), "" for none.
func settingOff(k, v string) string {
	v = strings.ToLower(strings.Trim(v, `"' `))
	off, on := opsList("off-values")[v], opsList("on-values")[v]
	if !off && !on {
		if opsList("anon-role-values")[v] && anonRoleKey(k) {
			return "guard" // auth.anonymous.org_role=Admin: every visitor an administrator
		}
		return ""
	}
	words := settingWords(k)
	for _, w := range words {
		if w == "disable" || w == "disabled" || w == "skip" || w == "no" {
			off, on = on, off // disable_mfa=true: the protection off; disable_auth=false: on
			break
		}
	}
	kind := ""
	for _, w := range words {
		switch {
		case off && opsList("guard-words")[w]:
			return "guard"
		case off && opsList("door-words")[w]:
			kind = "door"
		case on && opsList("open-words")[w] && kind == "":
			kind = "open"
		}
	}
	return kind
}

// anonRoleKey: a setting's name gives a role to the anonymous or guest
// visitor (grafana.ini.auth.anonymous.org_role, anonymous_role,
// guest.role): the words are data (remoteops.txt anon-words).
func anonRoleKey(k string) bool {
	anon, role := false, false
	for _, w := range settingWords(k) {
		anon = anon || opsList("anon-words")[w]
		role = role || w == "role" || w == "org_role" || w == "roles"
	}
	return anon && role
}

// settingOpts are the options whose value is a KEY=VALUE setting.
var settingOpts = map[string]bool{"-var": true, "--var": true, "--set": true, "--set-string": true, "--set-json": false, "-c": true, "--config": true, "--context": true, "--parameter-overrides": true, "--parameters": true, "-p": true}

// iacSettingOff: the strongest protection an IaC or chart command's
// settings switch off, with the setting.
func iacSettingOff(c *Cmd) (kind, setting string) {
	check := func(kv string) {
		for _, part := range strings.Split(kv, ",") {
			k, v, ok := strings.Cut(part, "=")
			if !ok {
				continue
			}
			if s := settingOff(k, v); s == "guard" || s != "" && kind == "" {
				kind, setting = s, part
			}
		}
	}
	for i, a := range c.Args {
		if k, v, ok := strings.Cut(a, "="); ok && settingOpts[k] {
			check(v)
			continue
		}
		if settingOpts[a] && i+1 < len(c.Args) {
			check(c.Args[i+1])
		}
	}
	// pulumi config set KEY VALUE, terraform's TF_VAR_x=… are read by their own rules
	if (c.Name == "pulumi" || c.Name == "pulumi-cli") && len(c.Pos) >= 4 && c.Pos[0] == "config" && c.Pos[1] == "set" {
		if s := settingOff(c.Pos[2], c.Pos[3]); s != "" {
			kind, setting = s, c.Pos[2]+"="+c.Pos[3]
		}
	}
	return kind, setting
}

// apiSettingOff finds "key": off in a request body or "key=off" in a form,
// and the path's last words: the setting the call changes.
func apiSettingOff(c *Cmd) (kind, setting string) {
	method, body, url := "", "", ""
	for i, a := range c.Args {
		switch {
		case (a == "-X" || a == "--request") && i+1 < len(c.Args):
			method = strings.ToUpper(c.Args[i+1])
		case (a == "-d" || a == "--data" || a == "--data-raw" || a == "--json" || a == "--data-binary" || a == "-F" || a == "-f" || a == "--field" || a == "--raw-field") && i+1 < len(c.Args):
			body += " " + c.Args[i+1]
		case strings.Contains(a, "://"):
			url = a
		}
	}
	if c.Name == "gh" && len(c.Pos) > 1 && c.Pos[0] == "api" {
		url = c.Pos[1]
	}
	if body == "" || method == "GET" || url == "" {
		return "", ""
	}
	path := urlHostPath(url)
	// "key": value pairs and key=value fields of the body
	for _, kv := range settingPairs(body) {
		k, v := kv[0], kv[1]
		if k == "value" || k == "enabled" || k == "status" || k == "state" || k == "mode" {
			k = path + "/" + k // {"value":"off"} on …/settings/ssl: the path names the setting
		}
		if s := settingOff(k, v); s == "guard" || s != "" && kind == "" {
			kind, setting = s, path+" "+kv[0]+"="+v
		}
	}
	return kind, setting
}

// settingPairs are a body's "key": value pairs (JSON) and key=value fields.
func settingPairs(b string) [][2]string {
	var out [][2]string
	for _, m := range jsonPair.FindAllStringSubmatch(b, 16) {
		out = append(out, [2]string{m[1], m[2]})
	}
	for _, f := range strings.Fields(b) {
		if k, v, ok := strings.Cut(strings.Trim(f, `"'`), "="); ok && !strings.ContainsAny(k, "{}\":") {
			out = append(out, [2]string{k, v})
		}
	}
	return out
}

var jsonPair = re(`"([A-Za-z0-9_.\-]+)"\s*:\s*"?([A-Za-z0-9_]+)"?`)

// renderOnly are IaC and chart subcommands that show, check or render
// without applying.
var renderOnly = map[string]bool{"plan": true, "validate": true, "console": true, "fmt": true, "show": true, "output": true, "template": true, "lint": true,
	"get": true, "list": true, "status": true, "history": true, "diff": true, "preview": true, "synth": true, "ls": true, "search": true, "pull": true, "package": true}

func settingOffRules() []Rule {
	iac := []string{"terraform", "tofu", "terragrunt", "pulumi", "helm", "helmfile", "cdk", "cdktf", "sam", "ansible-playbook"}
	api := []string{"curl", "http", "https", "xh", "gh", "curlie", "wget"}
	match := func(want string) func(e *Env, c *Cmd) string {
		return func(e *Env, c *Cmd) string {
			if e.dryRun(c) || onlyHelp(c) {
				return ""
			}
			var kind, setting string
			if c.Name == "curl" || c.Name == "http" || c.Name == "https" || c.Name == "xh" || c.Name == "gh" || c.Name == "curlie" || c.Name == "wget" {
				kind, setting = apiSettingOff(c)
				if kind == "door" {
					kind = "guard" // a hosted service's setting: saved, and for every visitor or user
				}
			} else {
				if renderOnly[sub(c)] {
					return "" // terraform plan, helm template, pulumi preview, cdk synth: nothing applied
				}
				kind, setting = iacSettingOff(c)
			}
			if kind != "" && kind != "guard" && !strings.HasPrefix(c.Name, "curl") && prodWord.MatchString(e.F.Command) {
				kind = "guard" // a service's door opened on a production cluster or stack (--kube-context prod-us1)
			}
			if kind == "" || want == "deny" && kind != "guard" || want == "ask" && kind == "guard" {
				return ""
			}
			if kind == "guard" {
				return c.Name + " switches off a protection of the account or its data (" + setting + "): " + c.String()
			}
			return c.Name + " switches off or opens a service's access check (" + setting + "): " + c.String()
		}
	}
	names := append(append([]string{}, iac...), api...)
	return []Rule{
		cmdRule("external.systems:protection-setting-off", Deny, "A protection of an account or its data switched off through a setting: an infrastructure variable or a chart value (terraform apply -var 'mfa_required=false', helm --set encryption.enabled=false), or an API call that sets a hosted service's protection off (MFA, audit logs, encryption, deletion protection, public-access blocks, the WAF or firewall, SSL, authentication); the words are data (policy/remoteops.txt guard-words, off-values)", names, match("deny"),
			[]string{"terraform apply -auto-approve -var 'okta_mfa_required=false' -var 'session_max_hours=720'", "tofu apply -var enable_cloudtrail_audit=false", "helm upgrade vault ./chart --set server.auditStorage.enabled=false --set audit.enabled=false",
				"curl -X PATCH https://api.example.com/v1/org/settings -H 'Content-Type: application/json' -d '{\"require_mfa\": false}'", "pulumi config set bucketEncryption false", "terraform apply -var 'disable_mfa=true'", "terraform apply -var='rds_deletion_protection=false'",
				"curl -s -X PATCH \"https://api.cloudflare.com/client/v4/zones/$CF_ZONE_ID/settings/ssl\" -H \"Authorization: Bearer $CF_API_TOKEN\" --data '{\"value\":\"off\"}'", "gh api -X PATCH repos/acme/shop/pages -f https_enforced=false"},
			[]string{"terraform plan -var 'okta_mfa_required=false'", "terraform apply -var 'okta_mfa_required=true'", "helm upgrade app ./chart --set metrics.enabled=false", "curl -X PATCH https://api.example.com/v1/flags/x -d '{\"enabled\": false}'",
				"terraform apply -var 'disable_mfa=false'", "pulumi preview -c bucketEncryption=false", "curl https://api.example.com/v1/org/settings"}),
		cmdRule("external.systems:access-setting-off", Ask, "A service's access check switched off or an opening switched on through a setting: a chart value or an infrastructure variable (helm --set auth.enabled=false, -var 'tls_enabled=false', -var allow_anonymous=true), which may be a local cluster's; the words are data (policy/remoteops.txt door-words, open-words, off-values)", names, match("ask"),
			[]string{"helm install redis bitnami/redis --set auth.enabled=false", "terraform apply -var 'grafana_allow_anonymous=true'", "helm upgrade kafka ./kafka --set tls.enabled=false"},
			[]string{"helm install redis bitnami/redis --set auth.enabled=true", "helm install app ./chart --set replicaCount=2", "curl -s https://api.cloudflare.com/client/v4/zones/$Z/settings/ssl -H \"Authorization: Bearer $T\"",
				"terraform apply -var 'tls_enabled=true'", "helm template app ./chart --set auth.enabled=false"}),
	}
}
