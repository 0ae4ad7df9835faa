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
		[]string{"influx auth list --json | jq -r '.[].id'", "influx auth list", "jq -r .token config/test.json", "gh api user | jq -r .login", "doctl registry list -o json | jq length", "npm ls --json | jq -r '.dependencies | keys[]'"})
}
