package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/lazyre"
)

// A bucket the line marks as the developer's own by naming it after the
// dev profile it runs under: env AWS_PROFILE=dev-jsmith aws s3 sync …
// s3://crumbco-menu-dev-jsmith/ --delete. A bucket named dev alone
// (citygis-tiles-dev) is a project's dev environment, shared by its team
// (own_dev_destroy.go), but a profile with a dev or sandbox word AND an
// owner's word, repeated whole in the bucket's name, says one developer
// made both for themselves: deleting in it is their own scratch work.
// Nothing on the line may mark it shared or real (prod, live, staging,
// shared, a wildcard).

// awsProfileSet: the profile a line selects, by environment or option.
var awsProfileSet = lazyre.New(`(?:\bAWS_PROFILE=|--profile[= ])['"]?([A-Za-z0-9_.-]+)`)

// ownDevProfileBucket: every object-store bucket c names carries, whole,
// the dev profile the line runs under, and that profile names a dev or
// sandbox word and an owner.
func ownDevProfileBucket(e *Env, c *Cmd) bool {
	line := e.F.Command
	if !strings.Contains(line, "dev") && !strings.Contains(line, "sandbox") && !strings.Contains(line, "sbx") {
		return false
	}
	m := awsProfileSet.FindStringSubmatch(line)
	if m == nil || prodWord.MatchString(line) || prodMarker.MatchString(line) || strings.ContainsAny(strings.Join(c.Args, " "), "*$`") {
		return false
	}
	prof := strings.ToLower(m[1])
	ws := ownNameWords(prof)
	marked := false
	for _, w := range ws {
		if sharedCloudEnvWords[w] || sharedStackWords[w] || sharedMarkWords[w] {
			return false
		}
		marked = marked || sandboxWords[w] || devOnlyWords[w]
	}
	if !marked || len(ws) < 2 {
		return false // --profile dev: the team's dev account
	}
	n := 0
	for _, a := range c.Args {
		if b := objectStoreBucket(a); b != "" {
			if !strings.Contains(strings.ToLower(b), prof) {
				return false
			}
			n++
		}
	}
	return n > 0
}
