package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// textPayloadRules: text payloads and remote targets — SQL carried as text
// wherever it stands, security downgrades by value, remote programs'
// payloads (pack_unknown_prodopt.go, pack_sql_text.go, pack_downgrade_values.go).
func textPayloadRules() []Rule {
	return append(append(append([]Rule{sqlDowngradeRule(), onlineAlterProdRule()}, downgradeValueRules()...), unknownProdOptRules()...), prodDestroyVerbRule(), sharedEnvOptRule()) // pack_prod_destroyverb.go
}

// remoteSyncDeletes: a sync run on another host that deletes at its
// destination what the source lacks (ssh nas 'rsync -a --delete
// /tmp/empty/ /volume1/homes/': an empty source wipes the share).
func remoteSyncDeletes(c *Cmd) bool {
	if c.Name != "rsync" || c.DryRun() || c.Has("-n", "--dry-run") {
		return false
	}
	if len(c.Pos) < 2 {
		return false
	}
	if dest := c.Pos[len(c.Pos)-1]; strings.HasPrefix(dest, "/") && callfacts.ZoneOf(dest, "", "") == callfacts.ZoneTemp {
		return false // a scratch mirror: only its own copies are deleted
	}
	for _, a := range c.Args {
		if a == "--del" || strings.HasPrefix(a, "--delete") {
			return true
		}
	}
	return false
}
