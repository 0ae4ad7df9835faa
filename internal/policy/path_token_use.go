package policy

import "strings"

// pathTokenUse: an ownerless token ($BOT_TOKEN, $API_KEY: every word of
// its name says what it is, none whose it is) carried as a segment of the
// URL's path of a read from an https API (api.telegram.org/bot$BOT_TOKEN/
// getWebhookInfo, hc-ping.com/$PING_KEY/job, a webhook's
// /hooks/$HOOK_TOKEN): the documented auth form of the APIs that put the
// token in the path, as ?access_token= is for others (queryAuthUse). It
// is held to what the Authorization header form is (tokenHeaderUse): a
// name that names another service, a capture or paste host, a raw IP,
// plain http or a body carrying the token still leave.
func pathTokenUse(c *Cmd, secret, url string, parts []reqPart, hosts []string, plain map[string]bool) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(secret), func(r rune) bool { return r == '_' || r == '-' }) {
		if !genericWords[w] {
			return false // $PTERO_KEY in a path: a named token goes to its own service only (belongsTo)
		}
	}
	u, q, _ := strings.Cut(url, "?")
	if strings.Contains(q, "$"+secret) || strings.Contains(q, "${"+secret) {
		return false // the query string: queryAuthUse's reading
	}
	i := strings.Index(u, "://")
	if i < 0 {
		return false
	}
	_, p, ok := strings.Cut(u[i+3:], "/")
	if !ok {
		return false // the host itself carries it
	}
	n := 0
	for _, seg := range strings.Split(p, "/") {
		if !strings.Contains(seg, "$") {
			continue
		}
		pre, ok := strings.CutSuffix(seg, "$"+secret)
		if !ok {
			pre, ok = strings.CutSuffix(seg, "${"+secret+"}")
		}
		if !ok || strings.Trim(strings.ToLower(pre), "abcdefghijklmnopqrstuvwxyz") != "" {
			return false // the token mixed into a segment with other values
		}
		n++
	}
	if n != 1 {
		return false
	}
	if h := captureHost(c); h != "" {
		return ownBotRead(c, secret, url, h, parts, plain)
	}
	return tokenHeaderUse(c, secret, parts, hosts, plain)
}

// ownBotRead: a capture host whose URL form carries the caller's own
// token in the path (api.telegram.org/bot<token>/…): what leaks there is
// data posted with a token written into the line, to a bot someone else
// reads. The line's own token variable filling that slot, on a read
// method (getMe, getUpdates, getWebhookInfo) with no body, form, upload
// or query, over https, asks that bot's own state from the service that
// issued the token.
func ownBotRead(c *Cmd, secret, url, capture string, parts []reqPart, plain map[string]bool) bool {
	l := strings.ToLower(url)
	if !strings.HasPrefix(l, "https://") || strings.Contains(url, "?") || plain[urlHost(url)] {
		return false
	}
	if !strings.Contains(l, strings.ToLower(capture)+"$"+strings.ToLower(secret)) && !strings.Contains(l, strings.ToLower(capture)+"${"+strings.ToLower(secret)+"}") {
		return false // the token not in the host's own credential slot
	}
	for _, p := range parts {
		if p.kind != "url" && p.kind != "header" {
			return false // a body, form or upload: data sent to the bot
		}
	}
	if c.Has("-T", "--upload-file", "-F", "--form") {
		return false
	}
	if m := optValue(c, "-X"); m != "" && !strings.EqualFold(m, "GET") {
		return false
	}
	method := strings.ToLower(l[strings.LastIndexByte(l, '/')+1:])
	return strings.HasPrefix(method, "get")
}
