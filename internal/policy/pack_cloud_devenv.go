package policy

import "strings"

// A cloud CLI's change (not a destroy) in an environment its selector
// names for one developer's own work (aws --profile cc-sandbox-dev,
// --profile dev, gcloud --configuration alice-sandbox) is the
// developer's own: the product's levels allow changes to resources
// clearly named dev/sandbox/local. A name that also says it is shared
// (staging, uat, qa, shared, preprod, integration) still asks, and a
// destroy there still asks (pack_cloud_envsel.go). A bare "sandbox"
// account is often a team's: it asks unless the name also says dev.

// devOwnEnvWords name a developer's own environment; sharedCloudEnvWords a
// shared one.
var (
	devOwnEnvWords      = map[string]bool{"dev": true, "devel": true, "development": true, "local": true, "scratch": true, "personal": true}
	sharedCloudEnvWords = map[string]bool{"staging": true, "stage": true, "stg": true, "uat": true, "qa": true, "shared": true, "preprod": true, "integration": true, "int": true, "nonprod": true, "team": true, "demo": true, "training": true, "perf": true, "load": true}
)

// cloudDevOwnSelected: c's environment selector names a developer's own
// environment.
func cloudDevOwnSelected(e *Env, c *Cmd) bool {
	v := cloudEnvSelected(e, c)
	if v == "" || prodWord.MatchString(v) || prodMarker.MatchString(v) {
		return false
	}
	own := false
	for _, w := range strings.FieldsFunc(strings.ToLower(v), func(r rune) bool { return !(r >= 'a' && r <= 'z') }) {
		if sharedCloudEnvWords[w] {
			return false
		}
		own = own || devOwnEnvWords[w]
	}
	return own
}

// awsReleaseOp: an aws operation that gives a resource back to the
// provider (release-address, release-hosts, release-phone-number,
// release-static-ip): the address or number is gone for good, another
// customer may get it — a delete by another word.
func awsReleaseOp(c *Cmd) bool {
	if c.Name != "aws" {
		return false
	}
	for _, p := range cloudWords(c.Pos) {
		if strings.HasPrefix(strings.ToLower(p), "release-") {
			return true
		}
	}
	return false
}

// nestedConsoleRead: a console command two nouns deep whose third word
// reads (wp wc product list, wp post meta list 12, wp user session list
// bob): the listing of a sub-resource, as wp plugin list is of a
// resource. Words are plain names, so a search-replace's operands are
// not taken for a verb.
func nestedConsoleRead(c *Cmd) bool {
	if len(c.Pos) < 3 || c.Pos[2] == "get" && len(c.Pos) > 3 && strings.Contains(c.Pos[3], "pass") {
		return false
	}
	for _, w := range c.Pos[:2] {
		if strings.Trim(w, "abcdefghijklmnopqrstuvwxyz_") != "" || consoleReadWords[w] || strings.Contains(w, "replace") {
			return false
		}
	}
	return consoleReadWords[c.Pos[2]]
}
