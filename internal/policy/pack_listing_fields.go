package policy

import "strings"

// A listing narrowed to named fields prints those fields and nothing
// else: wp config list --fields=name,type prints the settings' names,
// wp user list --fields=ID,user_login the accounts' logins. When no field
// named is a value, a secret or a person's contact, what the command
// prints holds none (a field a table does not know, such as user_email or
// value, keeps the command judged as ever).

// fieldOptions select the columns a listing prints.
var fieldOptions = []string{"--fields", "--field", "--columns", "--output-fields"}

// secretFieldWords in a field's name mean it may carry a secret or a
// person's data.
var secretFieldWords = []string{"value", "secret", "pass", "token", "key", "data", "payload", "credential", "connection", "hash",
	"salt", "auth", "cert", "email", "mail", "phone", "address", "url", "dsn", "env", "*"}

// namedFieldsOnly: c prints only the fields it names, and none of them
// may hold a secret or a person's contact.
func namedFieldsOnly(c *Cmd) bool {
	seen := false
	for _, o := range fieldOptions {
		v := strings.ToLower(strings.Trim(optValue(c, o), `"'`))
		if v == "" {
			continue
		}
		seen = true
		for _, w := range secretFieldWords {
			if strings.Contains(v, w) {
				return false
			}
		}
	}
	return seen
}
