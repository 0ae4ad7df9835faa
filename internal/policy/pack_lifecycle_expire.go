package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// a bucket's lifecycle rule that expires every object (no
// prefix or an empty filter, a current-version expiration) deletes the
// whole bucket's data when it next runs: aws s3api
// put-bucket-lifecycle-configuration with {"Filter":{},"Expiration":…}
// from a here-document or inline, mc ilm rule add --expire-days with no
// --prefix, s3cmd expire with no --expiry-prefix, gsutil lifecycle set
// from a here-document whose Delete rule matches no prefix.

var (
	lcExpire     = re(`(?is)"Expiration"\s*:\s*\{[^{}]*("Days"\s*:\s*"?[0-3]"?\s*[,}]|"Date")`)
	lcAllFilter  = re(`(?is)"Filter"\s*:\s*\{\s*\}|"Prefix"\s*:\s*""|"Filter"\s*:\s*\{\s*"Prefix"\s*:\s*""\s*\}`)
	lcAnyFilter  = re(`(?is)"(Filter|Prefix)"\s*:`)
	gcsDeleteAll = re(`(?is)"type"\s*:\s*"Delete"`)
	gcsShortAge  = re(`(?is)"age"\s*:\s*[0-3]\s*[,}]`)
	gcsNarrow    = re(`(?is)"(matchesPrefix|matchesSuffix|isLive|numNewerVersions|daysSinceNoncurrentTime|noncurrentTimeBefore|matchesStorageClass)"`)
)

// lifecycleExpiresAll says how c expires every object of a bucket, ""
// when it does not (or the bucket is a lab's).
func lifecycleExpiresAll(c *Cmd) string {
	switch c.Name {
	case "aws":
		if !lcPos(c, "put-bucket-lifecycle-configuration", "put-bucket-lifecycle") {
			return ""
		}
		if b := optValue(c, "--bucket"); b != "" && callfacts.LabTarget(b, nil) {
			return ""
		}
	case "mc", "mcli", "s3cmd", "gsutil":
		if !lcPos(c, "ilm", "expire", "lifecycle") {
			return "" // the cheap test first: most calls set no lifecycle
		}
	}
	text := c.Heredoc + " " + strings.Join(c.Args, " ")
	switch c.Name {
	case "aws":
		if lcExpire.MatchString(text) && (lcAllFilter.MatchString(text) || !lcAnyFilter.MatchString(text)) {
			return "a rule that expires every current object of the bucket"
		}
	case "mc", "mcli":
		if !lcPos(c, "ilm") || !lcPos(c, "add") || c.Has("--prefix") || c.Has("--noncurrent-expire-days", "--noncurrentversion-expiration-days") && !c.Has("--expire-days", "--expiry-days") {
			return ""
		}
		for _, a := range c.Args {
			if strings.HasPrefix(a, "--prefix=") {
				return ""
			}
		}
		if c.Has("--expire-date", "--expiry-date") || lcShortDays(c, "--expire-days", "--expiry-days") {
			return "an ILM rule with no prefix that expires every object"
		}
	case "s3cmd":
		if lcPos(c, "expire") && !strings.Contains(text, "--expiry-prefix") && (lcShortDays(c, "--expiry-days") || strings.Contains(text, "--expiry-date")) {
			return "an expiry with no prefix: every object of the bucket"
		}
	case "gsutil":
		if lcPos(c, "lifecycle") && lcPos(c, "set") && gcsDeleteAll.MatchString(text) && gcsShortAge.MatchString(text) && !gcsNarrow.MatchString(text) {
			return "a Delete rule that matches every object of the bucket"
		}
	}
	return ""
}

// lcShortDays: one of opts (--expire-days 1, --expiry-days=2) gives an
// expiry of at most three days: every object goes, not only old ones (a
// retention of 30 days asks as any change).
func lcShortDays(c *Cmd, opts ...string) bool {
	for i, a := range c.Args {
		for _, o := range opts {
			v, ok := "", false
			if a == o && i+1 < len(c.Args) {
				v, ok = c.Args[i+1], true
			} else if strings.HasPrefix(a, o+"=") {
				v, ok = a[len(o)+1:], true
			}
			if ok && len(v) == 1 && v[0] >= '0' && v[0] <= '3' {
				return true
			}
		}
	}
	return false
}

// lcPos: one of words is among c's positional arguments.
func lcPos(c *Cmd, words ...string) bool {
	for _, p := range c.Pos {
		for _, w := range words {
			if p == w {
				return true
			}
		}
	}
	return false
}

func lifecycleExpireAllRule() Rule {
	return cmdRule("external.systems:lifecycle-expire-all", Deny, "A bucket lifecycle rule that expires every object within days (an empty filter or no prefix with a current-version Expiration of at most 3 days or a Date, mc ilm rule add --expire-days with no --prefix, s3cmd expire with no --expiry-prefix, a GCS Delete rule with no match condition): the bucket's whole data is deleted when the rule next runs; a prefix-scoped rule or a lab bucket asks as any change", []string{"aws", "mc", "mcli", "s3cmd", "gsutil"},
		func(e *Env, c *Cmd) string {
			if onlyHelp(c) || e.dryRun(c) {
				return ""
			}
			if why := lifecycleExpiresAll(c); why != "" {
				return c.Name + " sets " + why + ": " + c.String()
			}
			return ""
		},
		[]string{"aws s3api put-bucket-lifecycle-configuration --bucket acme-logs-prod --lifecycle-configuration '{\"Rules\":[{\"ID\":\"x\",\"Status\":\"Enabled\",\"Filter\":{},\"Expiration\":{\"Days\":1}}]}'",
			"mc ilm rule add prod/acme-media --expire-days 1", "s3cmd expire s3://acme-backups --expiry-days=1"},
		[]string{"aws s3api put-bucket-lifecycle-configuration --bucket acme-logs-prod --lifecycle-configuration '{\"Rules\":[{\"ID\":\"x\",\"Status\":\"Enabled\",\"Filter\":{\"Prefix\":\"tmp/\"},\"Expiration\":{\"Days\":7}}]}'",
			"aws s3api get-bucket-lifecycle-configuration --bucket acme-logs-prod", "mc ilm rule add prod/acme-media --prefix tmp/ --expire-days 7", "mc ilm rule ls prod/acme-media", "mc ilm rule add --expire-days 30 prod/logs", "s3cmd expire s3://logs --expiry-days=7"})
}
