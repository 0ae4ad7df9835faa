package callfacts

import (
	_ "embed"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

//go:embed secretprints.txt
var secretPrintsText string

var secretPrintRules = sync.OnceValue(func() map[string][]wordRule {
	return parseWords(datatable.Lines("secretprints.txt", secretPrintsText), false)
})

// PrintsStoredSecret says which stored secret c prints by
// secretprints.txt (databricks secrets get-secret, airflow connections
// get, helm get values), "" for none; help and dry-run forms print none.
func (c *Cmd) PrintsStoredSecret() string {
	rules := secretPrintRules()[strings.ToLower(c.Name)]
	if rules == nil || matchWords(rules, c) == nil {
		if c.printsCredentialByWords() {
			return "a credential (" + c.Name + " " + strings.Join(c.Args, " ") + ")"
		}
		return ""
	}
	return "a stored secret (" + c.Name + " " + strings.Join(c.Args, " ") + ")"
}
