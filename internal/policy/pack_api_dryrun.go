package policy

import "strings"

// Two kinds of POST change nothing on the server, whatever the path or
// the words after it say:
//
//   - a dry run or a validation the request itself asks for: a query
//     pair ?dryRun=true, dry_run=1, validateOnly=true, importMode=VALIDATE,
//     mode=dryrun, a path step /dryRun or /dry-run (Kill Bill's
//     …/invoices/dryRun), or a JSON body "dryRun": true. The server
//     answers with what it would do (DHIS2's metadata import, a billing
//     engine's next invoice) and stores nothing.
//   - a form-encoded call to an API that takes every request by POST
//     (REDCap's /api/, many "action=" endpoints) whose operation field
//     names a read (action=export, method=list, content=metadata with no
//     action and no data): an export or a listing, read into the agent's
//     context, not a change.
//
// Both are read here for the HTTP-call rules (api-mutating-call,
// api-destructive-call, api-delete-path); a request that also carries a
// payload field (data=, records=) or an operation that writes stays
// judged by the method.

var (
	apiDryKeys    = map[string]bool{"dryrun": true, "validateonly": true, "simulate": true, "preview": true, "testrun": true, "whatif": true}
	apiDryModeKey = map[string]bool{"importmode": true, "mode": true, "runmode": true, "commitmode": true, "importstrategy": false}
	apiDryModes   = map[string]bool{"validate": true, "validation": true, "dryrun": true, "dry_run": true, "dry-run": true, "preview": true, "simulate": true, "test": false}
	apiTruthy     = map[string]bool{"true": true, "1": true, "yes": true, "on": true, "all": true}
)

// apiDryRun: the request asks the server only to check or preview it.
func apiDryRun(r apiCall) bool {
	for _, u := range r.urls {
		p := urlPath(u)
		q := ""
		if i := strings.IndexByte(p, '?'); i >= 0 {
			p, q = p[:i], p[i+1:]
		}
		for _, seg := range strings.Split(p, "/") {
			if n := normKey(seg); n == "dryrun" {
				return true // POST …/invoices/dryRun
			}
		}
		for _, kv := range strings.Split(q, "&") {
			k, v, _ := strings.Cut(kv, "=")
			if dryPair(k, v) {
				return true
			}
		}
	}
	if strings.Contains(strings.ToLower(r.body), "dry") || strings.Contains(strings.ToLower(r.body), "validate") {
		for _, kv := range bodyPairs(r.body) {
			if dryPair(kv[0], kv[1]) {
				return true
			}
		}
	}
	return false
}

func dryPair(k, v string) bool {
	k, v = normKey(k), strings.ToLower(strings.Trim(v, `"' `))
	return apiDryKeys[k] && apiTruthy[v] || apiDryModeKey[k] && apiDryModes[v]
}

// normKey: a name lower-cased without separators (dry_run, dry-run, dryRun → dryrun).
func normKey(s string) string {
	return strings.NewReplacer("_", "", "-", "", " ", "").Replace(strings.ToLower(strings.Trim(s, `"' `)))
}

var (
	// apiOpFields name the operation of a POST-only API's form call.
	apiOpFields = map[string]bool{"action": true, "method": true, "op": true, "operation": true, "cmd": true, "command": true, "function": true, "call": true, "request": true}
	// apiResourceFields name what the call is about; with no operation
	// field the API exports it (REDCap content=metadata).
	apiResourceFields = map[string]bool{"content": true, "resource": true}
	// apiPayloadFields carry what a call would store.
	apiPayloadFields = map[string]bool{"data": true, "records": true, "record": false, "file": true, "payload": true, "body": true, "json": true, "xml": true, "csv": true, "contents": true, "value": true, "values": true}
	// apiFormReadWords are operation values that only read.
	apiFormReadWords = map[string]bool{"export": true, "list": true, "get": true, "read": true, "show": true, "view": true, "search": true, "query": true, "find": true, "fetch": true, "describe": true,
		"info": true, "status": true, "version": true, "metadata": true, "log": true, "logs": true, "project": true, "count": true, "report": true, "ping": true, "help": true}
)

// apiFormRead: a form-encoded POST whose operation field only reads.
func apiFormRead(r apiCall) bool {
	if r.method != "POST" || r.body == "" || strings.ContainsAny(r.body, "{@<") {
		return false // a JSON or file body: a payload
	}
	for _, u := range r.urls {
		if webhookURL(u) {
			return false // content=… to a chat webhook is a message
		}
	}
	op, resource := false, false
	for _, kv := range bodyPairs(r.body) {
		k, v := normKey(kv[0]), normKey(kv[1])
		switch {
		case apiPayloadFields[k]:
			return false
		case apiOpFields[k]:
			if !formReadWord(v) {
				return false
			}
			op = true
		case apiResourceFields[k]:
			if !formReadWord(v) {
				return false // content=record with no action exports too, but a word read here is the safe side
			}
			resource = true
		}
	}
	return op || resource
}

// formReadWord: v is a read word, or starts with one (exportFieldNames,
// getUsers, listProjects).
func formReadWord(v string) bool {
	if apiFormReadWords[v] {
		return true
	}
	for _, p := range []string{"export", "get", "list", "search", "describe", "show", "fetch", "read", "view", "count"} {
		if strings.HasPrefix(v, p) && len(v) > len(p) {
			return true
		}
	}
	return false
}
