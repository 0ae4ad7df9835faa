package policy

import "strings"

// A listing whose rows carry secrets piped into a filter that keeps the
// secret field (influx auth list --json | jq -r '.[].token', foo keys
// list -o json | jq '.[].secret'): the list alone reads as names (fp15
// allows influx auth list), but the filter says what is printed is each
// row's token, password or secret key.

// credFieldNames are jq field names whose value is a credential itself.
var credFieldNames = map[string]bool{"token": true, "tokens": true, "access_token": true, "auth_token": true, "api_key": true, "apikey": true, "apiKey": true,
	"secret": true, "secret_key": true, "secretKey": true, "client_secret": true, "clientSecret": true, "password": true, "passwd": true,
	"private_key": true, "privateKey": true, "secret_access_key": true, "SecretAccessKey": true, "key_secret": true, "value": false}

// lastJqField is the last .name of a jq path (.[].token → token).
func lastJqField(f string) string {
	f = strings.Trim(f, `'" `)
	i := strings.LastIndexByte(f, '.')
	if i < 0 || strings.ContainsAny(f, "|(,") {
		return ""
	}
	return strings.Trim(f[i+1:], `[]?"`)
}

func listedSecretFieldRule() Rule {
	return cmdRule("core.local:listed-secret-field", Ask, "A CLI's listing piped into a filter that keeps each row's credential (influx auth list --json | jq -r '.[].token', doctl registry … list -o json | jq '.[].password'): every stored token or password printed into the conversation; names, ids and counts stay allowed", []string{"jq", "gojq", "jaq", "yq"},
		func(e *Env, c *Cmd) string {
			if len(c.Pos) == 0 || !credFieldNames[lastJqField(c.Pos[0])] {
				return ""
			}
			i := slicesIndex(e, c)
			for j := 0; j < i; j++ {
				u := &e.F.Commands[j]
				if !contains(c.Upstream, u.Name) {
					continue
				}
				for _, p := range u.Pos {
					if p == "list" || p == "ls" {
						return u.Name + "'s listing, filtered to " + lastJqField(c.Pos[0]) + ", prints each stored credential: " + u.String() + " | " + c.String()
					}
				}
			}
			return ""
		},
		[]string{"influx auth list --json | jq -r '.[].token'", "scw iam api-key list -o json | jq -r '.[].secret_key'", "doctl registry list -o json | jq '.[].password'", "mytool tokens ls --json | jq -r '.[].access_token'", "linode-cli obj keys list --json | jq -r '.[].secret_key'", "foo creds list -o json | gojq -r '.items[].client_secret'"},
		[]string{"influx auth list --json | jq -r '.[].id'", "influx bucket list", "jq -r .token config/test.json", "gh api user | jq -r .login", "doctl registry list -o json | jq length", "npm ls --json | jq -r '.dependencies | keys[]'"})
}

// jqFieldWord: a field name a jq filter picks (.id, {description, status}).
var jqFieldWord = re(`\.([A-Za-z_][\w-]*)|[{,]\s*([A-Za-z_]\w*)\s*(?:[,}:])`)

// listingFieldsPicked: command i prints a credential listing (particle
// token list, influx auth list) piped into jq or yq that keeps named
// fields none of which is a credential (jq '.[] | {description,
// status}', jq -r '.[].id'): ids and labels are printed, not tokens.
func listingFieldsPicked(e *Env, i int) bool {
	c := &e.F.Commands[i]
	if !slicesContainsAny(c.Pos, "list", "ls") {
		return false
	}
	return downstreamDoes(e, i, func(d *Cmd) bool {
		if d.Name != "jq" && d.Name != "gojq" && d.Name != "jaq" && d.Name != "yq" || len(d.Pos) == 0 {
			return false
		}
		picked := 0
		for _, m := range jqFieldWord.FindAllStringSubmatch(d.Pos[0], -1) {
			f := m[1] + m[2]
			if credFieldNames[f] || secretName(f) {
				return false
			}
			picked++
		}
		return picked > 0
	})
}

func slicesContainsAny(xs []string, ws ...string) bool {
	for _, x := range xs {
		for _, w := range ws {
			if x == w {
				return true
			}
		}
	}
	return false
}
