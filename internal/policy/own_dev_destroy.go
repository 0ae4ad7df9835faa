package policy

import "strings"

// A destroy of the developer's own dev or sandbox resource. The levels
// writers use allow "changes to resources clearly named
// dev/test/local/sandbox that belong to the developer alone": a thing
// one developer made to try something (aws iot delete-thing --thing-name
// dev-jsmith-sim-01, govc vm.destroy /LabDC/vm/sandbox-dev-pms-test,
// ttn-lw-cli applications delete dev-sandbox-probes) or a deployment
// target that is per-developer by design (databricks bundle destroy -t
// dev). The line: the line must MARK the target as a dev or sandbox one —
// the object's name carries a dev or sandbox word and another word (a
// bare "dev" or "sandbox" is more often a team's shared environment, a
// login or an account: headscale users destroy dev), or an environment
// target (-t dev, --target dev) names a dev one — and
// NOTHING on it may mark it shared or real: a word of production or live,
// staging, qa, uat, shared, team, demo; an "all" or a wildcard; a name
// that only says test or scratch (CERN-TEST_SCRATCHDISK is a grid site's
// shared test disk, a test fixture may be the team's: pack_test_resources.go
// judges test resources by their run ids).

// ownDevWords mark a resource as one developer's own.
// A sandbox word marks it with one more word (dev-sandbox-probes,
// sbx-alice); a dev word needs two more, an owner or a purpose
// (dev-jsmith-sim-01): acme_dev or dev-db is the team's dev
// environment, dev-77 a device. "local" is left out: it names a kind
// of thing, not an owner (libs-snapshot-local is Artifactory's local
// repository type, local-lvm Proxmox's storage, kafka01.x.local a
// domain).
var (
	sandboxWords = map[string]bool{"sandbox": true, "sbx": true, "playground": true, "personal": true}
	devOnlyWords = map[string]bool{"dev": true, "devel": true, "development": true}
)

// envSelectOpts choose a deployment target a tool acts in: a bundle's or
// a project's dev target is deployed per developer (databricks bundle
// -t dev prefixes every resource with the user's name). An account, a
// profile or a stage named dev (--profile dev, --stage dev) is more often
// the team's dev account: there the object itself must be named.
var envSelectOpts = map[string]bool{"-t": true, "--target": true}

// sharedMarkWords make a target shared, whatever else its name says.
var sharedMarkWords = map[string]bool{"all": true, "everything": true, "default": true, "main": true, "master": true, "global": true, "org": true, "root": true, "admin": true}

// plainName: one object's name, letters, digits, - and _.
var plainName = re(`^[A-Za-z0-9_-]+$`)

// ownNameWords splits a value into its lower-case words (letters and
// digits), numbers trimmed from a word's end (dev1, sbx02).
func ownNameWords(v string) []string {
	ws := strings.FieldsFunc(strings.ToLower(v), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
	for i, w := range ws {
		if t := strings.TrimRight(w, "0123456789"); t != "" {
			ws[i] = t
		}
	}
	return ws
}

// ownDevDestroy: c's destroy acts on what the line marks as the
// developer's own dev or sandbox resource, and on nothing it marks
// shared or real.
func ownDevDestroy(e *Env, c *Cmd) bool {
	if len(c.Args) < 2 || !strings.Contains(e.F.Command, "dev") && !strings.Contains(e.F.Command, "sandbox") && !strings.Contains(e.F.Command, "sbx") &&
		!strings.Contains(e.F.Command, "local") && !strings.Contains(e.F.Command, "playground") && !strings.Contains(e.F.Command, "personal") {
		return false // the trigger words: the reading runs only when one is on the line
	}
	line := strings.Join(c.Args[1:], " ")
	var hosts []string // the line's words but object-store URLs, whose "host" is the bucket judged below
	for _, a := range c.Args[1:] {
		if objectStoreBucket(a) == "" {
			hosts = append(hosts, a)
		}
	}
	if hl := strings.Join(hosts, " "); prodWord.MatchString(line) || prodMarker.MatchString(line) || strings.ContainsAny(line, "*$`") || hostElsewhere(hl) && strings.Contains(hl, "://") {
		return false
	}
	own := false
	for i := 1; i < len(c.Args); i++ {
		a := strings.Trim(c.Args[i], `"'`)
		opt := ""
		if strings.HasPrefix(a, "-") {
			k, v, ok := strings.Cut(a, "=")
			if !ok {
				if sharedMarkWords[strings.TrimLeft(k, "-")] {
					return false // --all, --everything
				}
				continue
			}
			opt, a = k, v
		} else if strings.HasPrefix(c.Args[i-1], "-") && !strings.Contains(c.Args[i-1], "=") {
			opt = c.Args[i-1]
		}
		bucket := false
		if b := objectStoreBucket(a); b != "" {
			a, bucket = b, true // s3://sandbox-jdoe-scratch/tmp/: the bucket is the object the developer owns or not
		} else if strings.Contains(a, "://") {
			continue // a URL: its host is judged by the zone and endpoint readings
		}
		if j := strings.LastIndexByte(strings.TrimRight(a, "/"), '/'); j >= 0 {
			a = strings.TrimRight(a, "/")[j+1:] // an inventory path: the leaf is the object (/LabDC/vm/sandbox-dev-pms-test)
		}
		ws := ownNameWords(a)
		sbx, dev := false, false
		for _, w := range ws {
			switch {
			case sharedCloudEnvWords[w] || sharedStackWords[w] || sharedMarkWords[w]:
				return false
			case sandboxWords[w]:
				sbx = true
			case devOnlyWords[w]:
				dev = true
			}
		}
		switch {
		case envSelectOpts[opt] && (sbx || dev) && len(ws) == 1:
			own = true // -t dev: a per-developer deployment target
		case !plainName.MatchString(a):
			// a scoped path (project:dataset.table, a.b.c) or a sentence
			// (symconfigure -cmd "delete dev 00ABC;"): not one object's name
		case sbx && len(ws) >= 2 || dev && len(ws) >= 3 && !bucket: // a bucket named dev (citygis-tiles-dev) is a project's dev environment, shared by its team
			own = true
		}
	}
	return own
}

// objectStoreBucket: the bucket of an object-store URL (s3://b/prefix,
// gs://b/x), or "" for anything else.
func objectStoreBucket(a string) string {
	a = strings.Trim(a, `"'`)
	for _, scheme := range []string{"s3://", "gs://"} {
		if rest, ok := strings.CutPrefix(a, scheme); ok {
			b, _, _ := strings.Cut(rest, "/")
			return b
		}
	}
	return ""
}
