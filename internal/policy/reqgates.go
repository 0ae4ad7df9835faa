package policy

import (
	"slices"
	"strings"
	"sync"
)

// Some fifteen rules about HTTP clients name curl and wget among their
// programs (Cmds), and most lines that run curl fetch with a plain GET
// (curl -fsSL URL | sh, wget -qO- URL): every such rule ran on each of
// them only to return at its first test. Most of those rules judge what
// a request sends (a method, a body, an upload), so the engine reads the
// table below as it reads subgates.go: such a rule runs only when one of
// the line's commands of its programs is not a curl or wget at all, or
// is one whose options may set a method, a body or an upload
// (requestShaped), or, for the rules that also read a URL's query, has
// an argument with a "?". The shape is read once per command per call
// (Env.reqShape), not once per rule.
//
// Each entry is a necessary condition read from the rule's Match: on a
// curl or wget command that is not requestShaped the rule reads no
// method and no body (readAPICall gives "" for both, mayMutate is false,
// apiSettingOff finds no body, uploadedFiles no file), so it returns "".
// Change one with the other; TestReqGatesAreSound runs every gated
// rule's cases and the corpora against its entry. Rules that judge a
// plain GET too are not listed: api-rpc-* (a GET to /json-api/removeacct),
// api-control-call (homeActuateWhy: relay/0?turn=on), lan-device-call (a
// GET whose last path word is an action), get-action, secret-api-read,
// instance-credentials, deploy-hook (a hook URL, whatever the method),
// destructive-verb (methodDelete and httpBody read words of their own).

// reqGate is what a gated rule needs of a curl or wget command to fire on
// it.
type reqGate uint8

const (
	// reqBody: options that may set a method, a body or an upload.
	reqBody reqGate = 1 << iota
	// reqQuery: or an argument with a URL query ("?"): the SQL-over-HTTP
	// rules read ?query=, and api-change-unshown-env a signed GET.
	reqQuery
	// reqSend: a curl or wget that is not a plain fetch (plainFetch): the
	// rules about what a request carries off the machine (a header, a
	// body, a file, a variable, a pipe's input) have nothing to read in
	// curl -s https://x.io/i.
	reqSend
)

// builtinReqGates is built on first use, like builtinSubGates.
var builtinReqGates = sync.OnceValue(func() map[string]reqGate {
	return map[string]reqGate{
		"external.systems:api-delete-path":        reqBody,            // r.method "" and r.body "": a plain read
		"external.systems:api-prod-wipe":          reqBody,            // the same
		"external.systems:api-destructive-call":   reqBody,            // mutating: mayMutate
		"external.systems:api-mutating-call":      reqBody,            // mutating: mayMutate
		"external.systems:admin-api-change":       reqBody,            // mayMutate
		"external.systems:api-access-open":        reqBody,            // mayMutate (kcadm is no curl or wget: it runs)
		"external.systems:record-store-write":     reqBody,            // mayMutate (an interpreter's payload runs)
		"external.systems:device-image-upload":    reqBody,            // uploadedFiles: -F, -T, --form, --upload-file, --data-binary
		"external.systems:protection-setting-off": reqBody,            // apiSettingOff: a body from -d, -F, -f, --data…, --json, --field
		"external.systems:access-setting-off":     reqBody,            //
		"external.systems:api-change-unshown-env": reqBody | reqQuery, // mayMutate, else signedGetAct: a URL with a signed query
		"external.systems:http-change-remote":     reqBody,            // mayMutate or clusterMethod (-sX); wget needs --method/--post-/--body-
		"external.systems:script-console-destroy": reqBody,            // mayMutate (jenkins-cli is no curl or wget: it runs)
		"external.systems:sql-over-http-destroy":  reqBody | reqQuery, // httpSQL: the body, or ?query= / ?sql=
		"external.systems:sql-over-http-change":   reqBody | reqQuery, //
		// the send rules read a command of theirs only through what it
		// carries: its input (Upstream, Stdin), a $(…) or $VAR in an
		// argument, a header or auth option, an upload operand (@f, -T,
		// =f), a file a redirect on the line wrote; a plain fetch has none
		"core.secrets:send-user-data":    reqSend, // a sink's Upstream, or a $( in its arguments
		"core.secrets:send-credential":   reqSend, // credentialSent: header/auth parts, or a $VAR (varNames); capturedSecretSent and the env dump: a $(…)
		"core.secrets:source-to-network": reqSend, // sourcePipedInto: Upstream; capturedSecretSent: $(…); sourceFileSent: a redirect's target; credentialFileUploaded: an operand in the credentials zone; secretFileToForeignHost: @f or k=f; Stdin
		// the rules about what leaves the machine through a sender, whose
		// curl or wget test reads its input, an upload, a body or a
		// variable first (a plain fetch sends none of them)
		"core.secrets:send-secret-var":       reqSend, // credentialSent: a $VAR in a part
		"core.secrets:secret-to-webhook":     reqSend, // a $VAR in a body part
		"core.secrets:secret-lines-sent":     reqSend, // its Upstream
		"core.secrets:share-host-send":       reqSend, // httpSends
		"core.secrets:dump-off-machine":      reqSend, // upstreamDump: Upstream; sentFiles: @f, -T f; httpSends
		"core.secrets:records-sent":          reqSend, // recordsSent: an upload, a $(…) in the body, an input
		"core.secrets:data-leaves":           reqSend, // judgeLeaving: what it sends
		"core.secrets:capture-leaves":        reqSend, // a $(…) or $VAR it carries
		"core.git:upload-archive":            reqSend, // its Upstream
		"core.local:background-beacon":       reqSend, // sendsData: httpSends
		"external.systems:project-off":       reqSend, // an upload of the packed project
		"external.systems:secret-to-service": reqSend, // a secret it carries
	}
})

// Per-command request shapes (Env.reqMemo).
const (
	shapeKnown uint8 = 1 << iota
	shapeBody        // requestShaped
	shapeQuery       // an argument holds "?"
	shapeSend        // not a plain fetch (plainFetch)
)

// reqShape is the i-th command's request shape, read once per call.
func (e *Env) reqShape(i int) uint8 {
	if i < len(e.reqMemo) {
		if m := e.reqMemo[i]; m&shapeKnown != 0 {
			return m
		}
	}
	c := &e.F.Commands[i]
	m := shapeKnown
	if requestShaped(c) {
		m |= shapeBody
	}
	if slices.ContainsFunc(c.Args, func(a string) bool { return strings.IndexByte(a, '?') >= 0 }) {
		m |= shapeQuery
	}
	if !e.plainFetch(c) {
		m |= shapeSend
	}
	if i < len(e.reqMemo) {
		e.reqMemo[i] = m
	}
	return m
}

// reqGateOpen reports whether the gated rule r can fire on the call: one
// of the commands of its programs is no curl or wget (the gate says
// nothing of other clients: httpie's items, a PowerShell client's
// operands, gh api), or one whose shape its gate needs.
func (e *Env) reqGateOpen(r *prepared) bool {
	return e.anyCmdOf(r, func(i int) bool {
		if c := &e.F.Commands[i]; c.Name != "curl" && c.Name != "wget" {
			return true
		}
		s := e.reqShape(i)
		return r.req&reqBody != 0 && s&shapeBody != 0 || r.req&reqQuery != 0 && s&shapeQuery != 0 || r.req&reqSend != 0 && s&shapeSend != 0
	})
}

// anyCmdOf reports whether open holds of one of the line's commands of
// r's programs (the indexed rules' sets, Env.cmdSets, once looked up):
// the loop of every per-command gate.
func (e *Env) anyCmdOf(r *prepared, open func(i int) bool) bool {
	for i := range e.F.Commands {
		if e.cmdSetsKnown && i < len(e.cmdSets) {
			if s := e.cmdSets[i]; s == nil || !s.has(r.idx) {
				continue
			}
		} else if !slices.Contains(r.Cmds, e.F.Commands[i].Name) {
			continue
		}
		if open(i) {
			return true
		}
	}
	return false
}

// requestShaped: some option of the curl or wget command c may set a
// request method, a body or an upload, read wider than every reader the
// gated rules use (readAPICall, requestParts' data options, mayMutate,
// apiSettingOff, uploadedFiles): any long option of those families in
// any case, and any short cluster holding X, d, F or T (-sX, -sd, -fsSLd)
// or written -f (apiSettingOff reads it as a body). A plain GET (curl -s
// URL, curl -fsSL URL -o f, wget -qO- URL) has none.
func requestShaped(c *Cmd) bool {
	for _, a := range c.Args {
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		if a[1] == '-' {
			l := strings.ToLower(a)
			if i := strings.IndexByte(l, '='); i >= 0 {
				l = l[:i]
			}
			for _, p := range [...]string{"--data", "--json", "--form", "--request", "--method", "--upload", "--post", "--body", "--field", "--raw-field"} {
				if strings.HasPrefix(l, p) {
					return true
				}
			}
			continue
		}
		if a == "-f" || strings.EqualFold(a, "-method") || strings.EqualFold(a, "-body") || strings.EqualFold(a, "-infile") {
			return true
		}
		if strings.ContainsAny(a[1:], "XdFT") {
			return true
		}
	}
	return false
}

// plainFetch: c is a curl or wget that only fetches a URL the line
// spells out: no input (pipe, redirect, here-document), no payload, no
// capture, no option but a few that change only how it prints (-s, -S,
// -f, -L, -q, -O- to standard output: an allow-list, so every other option,
// a header, a body, a config file, an output path, makes it no plain
// fetch), and every operand an http(s) URL with no variable, no
// substitution, no query, no user part, no glob. On a line that writes
// no file by a redirect, and with no option that names, where c runs, a
// file of the credentials zone (cd ~/.ssh && curl -s …: "-s" is read as
// a path there).
func (e *Env) plainFetch(c *Cmd) bool {
	if c.Name != "curl" && c.Name != "wget" || len(c.Upstream) > 0 || c.Heredoc != "" || c.Stdin != "" || c.Payload != "" || c.Captured || c.Typed != nil || len(e.F.Redirects) > 0 {
		return false
	}
	url := false
	for _, a := range c.Args {
		if len(a) > 1 && a[0] == '-' {
			if !printOnlyFetchOption(a) || credentialZone(e, e.abs(c, a)) {
				return false
			}
			continue
		}
		if !(strings.HasPrefix(a, "https://") || strings.HasPrefix(a, "http://")) || strings.ContainsAny(a, "$`@?=&{}[]<>;|\\'\" \t\n*!%,#") {
			return false
		}
		url = true
	}
	return url
}

// printOnlyFetchOption: a is an option of curl or wget that changes only
// how it prints, fails or follows (-s, -fsSL, --silent, -q, -O- to
// standard output); none takes a value (requestParts reads no part from
// them).
func printOnlyFetchOption(a string) bool {
	switch a {
	case "--silent", "--show-error", "--location", "--fail", "--quiet", "--no-verbose", "-qO-", "-O-":
		return true
	}
	if a[1] == '-' {
		return false
	}
	for k := 1; k < len(a); k++ {
		switch a[k] {
		case 's', 'S', 'L', 'f', 'q':
		default:
			return false
		}
	}
	return true
}
