package policy

import "strings"

// A credential used where it belongs, read by its form rather than by a
// list of vendors' domains:
//
//   - an app's id and secret given together as the request's own basic
//     login (curl -u "$PCO_APP_ID:$PCO_SECRET" https://api.…/v2/…): the
//     two halves of one credential, named by the same prefix, are how
//     the API the line reads logs its caller in. Only a read (no body
//     from a file or a command, no upload) of an https API front
//     (api.vendor.com) that is no capture host, and only when no word
//     of the name is a service
//     secrethosts.txt lists ($AWS_… still goes to AWS only).
//   - a key whose service word is the first segment of an https API's
//     path (?api_key=$FRED_API_KEY to api.stlouisfed.org/fred/…): the
//     service under its operator's domain.

// credentialPairUse: val is "$X_…:$X_…" (or ${…}) whose second half is
// secret and whose halves share their first word.
func credentialPairUse(c *Cmd, secret, val string, parts []reqPart, hosts []string, plain map[string]bool) bool {
	user, pass, ok := strings.Cut(val, ":")
	if !ok {
		return false
	}
	u, p := pairVar(user), pairVar(pass)
	if u == "" || p != secret || u == p {
		return false
	}
	uw, pw := nameWords(u), nameWords(p)
	if len(uw) < 2 || len(pw) < 2 || uw[0] != pw[0] || genericWords[uw[0]] || listedElsewhere(secret) {
		return false
	}
	for _, h := range hosts {
		if !strings.HasPrefix(h, "api.") && !apiLabelHost(h) {
			return false // the vendor's API front only (api.vendor.com), not any host with an /api path
		}
	}
	return apiReadUse(c, secret, parts, hosts, plain)
}

// pairVar is the variable a half of a login names ("$PCO_SECRET",
// "${PCO_SECRET}", "$VAN_KEY|1": the name), "" for a literal.
func pairVar(s string) string {
	s = strings.Trim(s, `"'`)
	if !strings.HasPrefix(s, "$") {
		return ""
	}
	s = strings.TrimPrefix(strings.TrimPrefix(s, "$"), "{")
	end := strings.IndexFunc(s, func(r rune) bool {
		return !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
	if end >= 0 {
		s = s[:end]
	}
	return s
}

func nameWords(n string) []string {
	return strings.FieldsFunc(strings.ToLower(n), func(r rune) bool { return r == '_' || r == '-' })
}

// apiPathNamesService: the first path segment of an https API host's URL
// is a word of the secret's name that says whose it is (not a generic
// word, not a service listed with other domains).
func apiPathNamesService(c *Cmd, name, h, u string) bool {
	if !plausibleServiceHost(c, h, u) || listedElsewhere(name) || !strings.HasPrefix(h, "api.") && !apiLabelHost(h) && !apiRegionHost(h) {
		return false
	}
	p, _, _ := strings.Cut(strings.ToLower(urlPath(u)), "?")
	seg, _, _ := strings.Cut(strings.TrimPrefix(p, "/"), "/")
	if len(seg) < 3 || strings.Contains(seg, "$") {
		return false
	}
	for _, w := range nameWords(name) {
		if genericWords[w] {
			continue
		}
		if w == seg || len(w) >= 4 && apiSuffixedSegment(seg, w) {
			return true
		}
	}
	return false
}

// apiRegionHost: an API front named for its region (api-na.vendor.com,
// api-eu.vendor.io): the first label is api- and a short region code.
func apiRegionHost(h string) bool {
	first, rest, ok := strings.Cut(strings.ToLower(h), ".")
	r, isAPI := strings.CutPrefix(first, "api-")
	return ok && isAPI && len(r) >= 2 && len(r) <= 4 && strings.Count(rest, ".") >= 1
}

// apiSuffixedSegment: a path segment that is the service's word with a
// web-service suffix (/almaws/ for $ALMA_KEY: Alma's web services).
func apiSuffixedSegment(seg, w string) bool {
	suf, ok := strings.CutPrefix(seg, w)
	return ok && (suf == "ws" || suf == "api" || suf == "-api" || suf == "_api" || suf == "rest")
}
