package policy

import (
	"strings"
	"sync"
)

// URL gates: some dozen rules indexed by the HTTP clients (curl, wget,
// http, xh, gh…) judge only what a URL names: its host (the metadata
// service, a device on the local network), a path that calls a function
// by its name (/json-api/removeacct), a manager's action, a deploy hook.
// curl -fsSL https://x.io/i | sh met each of them only for it to find
// nothing in https://x.io/i. The engine reads the table below as it
// reads reqgates.go: such a rule runs only when a command of its
// programs has the URL shape its entry names. The shape is read once per
// command per call (Env.urlShape), for every group at once.
//
// Each entry is a necessary condition read from the rule's Match: the
// rule returns "" on a command whose arguments lack the shape (each
// group says which test of the rule it stands for). Change one with the
// other; TestURLGatesAreSound runs every gated rule's cases and the
// corpora against its entry.

// urlGroup is a URL shape a gated rule needs of a command.
type urlGroup uint8

const (
	// urlMeta: an argument (lower case) names the metadata service:
	// 169.254., metadata, fd00:ec2, 100.100.100.200, what
	// instance-credentials, cloud-metadata and metadata-credentials test
	// first.
	urlMeta urlGroup = 1 << iota
	// urlHook: an argument holds a deploy hook (remoteops.txt
	// deploy-hook), which deploy-hook looks for in a URL.
	urlHook
	// urlManager: an argument holds a manager's action path
	// (remoteops.txt get-action-path), which get-action looks for in a
	// URL's path.
	urlManager
	// urlFunction: an argument with a "/" whose last path segment names
	// a function (rpcFunction), what the api-rpc rules read first.
	urlFunction
	// urlLAN: a command that is no plain fetch (plainFetch, read as
	// reqShape's shapeSend: its URLs may come from options, variables or
	// input), or one a URL of which is a device on the local network
	// (lanDeviceHost): lan-device-call judges no other URL.
	urlLAN
	urlKnown // the memo's mark: the shape is read
)

// metadataWords are what the metadata-service rules look for first.
var metadataWords = []string{"169.254.", "metadata", "fd00:ec2", "100.100.100.200"}

// builtinURLGates is built on first use, like builtinReqGates.
var builtinURLGates = sync.OnceValue(func() map[string]urlGroup {
	return map[string]urlGroup{
		"external.systems:instance-credentials": urlMeta,     // 169.254. / metadata / fd00:ec2 in the arguments
		"core.secrets:cloud-metadata":           urlMeta,     // a metadata host in an argument
		"core.local:metadata-credentials":       urlMeta,     // the same, and 100.100.100.200, lower case
		"external.systems:deploy-hook":          urlHook,     // a deploy-hook word in a lower-cased URL
		"external.systems:get-action":           urlManager,  // getActionURL: a get-action-path word in a URL's path
		"external.systems:api-rpc-destroy":      urlFunction, // rpcGetJudge: an argument with "/" naming a function
		"external.systems:api-rpc-change":       urlFunction, //
		"external.systems:lan-device-call":      urlLAN,      // lanDeviceHost of a URL the call reads
	}
})

// urlShape is the set of groups the i-th command's arguments have, read
// once per call. A plain fetch's operands are its only URLs (reqShape,
// read for the send rules already), so only they are asked whether they
// reach a device on the local network.
func (e *Env) urlShape(i int) urlGroup {
	if i < len(e.urlMemo) && e.urlMemo[i]&urlKnown != 0 {
		return e.urlMemo[i] &^ urlKnown
	}
	c := &e.F.Commands[i]
	var s urlGroup
	if c.Name != "curl" && c.Name != "wget" || e.reqShape(i)&shapeSend != 0 {
		s |= urlLAN
	}
	w := urlGateWords()
	for _, a := range c.Args {
		l := strings.ToLower(a)
		if s&urlMeta == 0 && containsAny(l, metadataWords) {
			s |= urlMeta
		}
		if s&urlHook == 0 && containsAny(l, w.hooks) {
			s |= urlHook
		}
		if s&urlManager == 0 && containsAny(l, w.actions) {
			s |= urlManager
		}
		if !strings.Contains(a, "/") {
			continue
		}
		if s&urlFunction == 0 {
			if lvl, _ := rpcFunction(a); lvl != "" {
				s |= urlFunction
			}
		}
		if s&urlLAN == 0 && lanDeviceHost(a) {
			s |= urlLAN
		}
	}
	if i < len(e.urlMemo) {
		e.urlMemo[i] = s | urlKnown
	}
	return s
}

// urlGateWords are the remoteops.txt lists urlShape reads, looked up once.
var urlGateWords = sync.OnceValue(func() struct{ hooks, actions []string } {
	return struct{ hooks, actions []string }{opsWords("deploy-hook"), opsWords("get-action-path")}
})

// urlGateOpen reports whether the gated rule r can fire on the call: a
// command of its programs has the URL shape its entry needs.
func (e *Env) urlGateOpen(r *prepared) bool {
	return e.anyCmdOf(r, func(i int) bool { return e.urlShape(i)&r.url != 0 })
}
