package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
	"github.com/warden-dev/warden/internal/lazyre"
)

// A service's records destroyed in bulk through its client. Code that
// logs in to a service (a token, a key, an SDK's own login) and deletes,
// archives, cancels or deactivates what it walks — every issue a search
// returns, every file of a listing, every account of a CSV, a page with
// its children (recursive=True), a batch archive — destroys records of
// the account the credential opens. A hosted service's account is the
// live one unless the code names a sandbox, a test or a dev instance
// (those the client readings already leave alone), and no run of the
// loop can be taken back: what `zorkctl … delete --all` is for a CLI,
// denied as it is. One record deleted stays the client readings' ask.

// bulkWalk: code that repeats its call over what it walked or read
// (for … in, while, .each, forEach, map, a comprehension, Promise.all).
var bulkWalk = lazyre.New(`(?m)(?:^|;)\s*(?:async\s+)?for\s+\w+(?:\s*,\s*\w+)*\s+in\b|(?:^|;|\{)\s*for\s*\(|\bwhile\s*(?:\(|True\b|true\b)|\.each\b|\.each_with_index\b|\.forEach\s*\(|\.map\s*\(|Promise\.all|[\[(][^\n]*?\bfor\s+\w+(?:\s*,\s*\w+)*\s+in\b|\brecursive\s*[=:]\s*(?:True|true)`)

// literalLoop: a loop over a literal list: the records are named on
// the line one by one, as a CLI's delete of each would name them.
var literalLoop = lazyre.New(`\bfor\s+\w+\s+in\s+[\[(]\s*['"][^\])\n]*[\])]|\[\s*['"][^\]\n]*\]\s*\.(?:each|forEach|map)\b`)

// namesTestThings: a literal of the code names what tests or CI made
// (tag_name='ci', 'tmp-e2e-…'): the walk destroys those.
func namesTestThings(text string) bool {
	for _, l := range callfacts.Literals(text) {
		if len(l) <= 60 && callfacts.SDKTestName(l) {
			return true
		}
	}
	return false
}

// bulkDestroyVerbs: a method's verb that takes a record away from the
// service's users (deleted, removed, archived, cancelled, deactivated).
var bulkDestroyVerbs = map[string]bool{"delete": true, "destroy": true, "remove": true, "purge": true, "drop": true, "truncate": true, "wipe": true, "erase": true,
	"archive": true, "cancel": true, "deactivate": true, "terminate": true}

// destroyMethod: the method's name (its last dotted part, "(…)" cut)
// names a destroy among its first words after batch/bulk.
func destroyMethod(call string) bool {
	call = strings.TrimSuffix(call, "(…)")
	if i := strings.LastIndexByte(call, '.'); i >= 0 {
		call = call[i+1:]
	}
	parts := splitMethodName(call)
	for len(parts) > 1 && clientSkipWords[parts[0]] {
		parts = parts[1:]
	}
	for i := 0; i < len(parts) && i < 2; i++ {
		if clientReadVerbs[parts[i]] {
			return false
		}
		if bulkDestroyVerbs[parts[i]] {
			return true
		}
	}
	return false
}

func interpServiceBulkDestroyRule() Rule {
	return cmdRule("core.interp:service-bulk-destroy", Deny, "Interpreter code that logs in to a service and destroys its records in bulk through the client: a delete, archive, cancel or deactivate called for every item a search, a listing or a file gives (for issue in j.search_issues(…): issue.delete(), files_delete in a paging loop, client.deactivate_account(…) in .each), a batch archive, or a page removed with its children (recursive=True): the live account's records go, none of them can be taken back — as a CLI's delete --all; a client of this machine, a sandbox, a test or dev instance and a dry run are not flagged, and one record deleted is the client readings' ask", sdkRunners,
		func(e *Env, c *Cmd) string {
			text := runtimeText(c)
			if text == "" {
				return ""
			}
			text = literalLoop.ReplaceAllString(text, "") // for ch in ['C01', 'C02']: the records named one by one
			if !bulkWalk.MatchString(text) && !strings.Contains(text, "batch") && !strings.Contains(text, "bulk") || namesTestThings(text) {
				return ""
			}
			what := remoteClientChange(text)
			if what == "" || !destroyMethod(what) {
				if m := codeClientDestroy(text); m != "" {
					what = m + "(…)"
				} else if l := listedDestroy(text); l != "" && clientCred.MatchString(text) && !listedLocal(text) {
					what = l // for i in j.search_issues(…): i.delete(), logged in with a token
				} else {
					return ""
				}
			}
			if !bulkWalk.MatchString(text) && !strings.Contains(what, "batch") && !strings.Contains(what, "bulk") {
				return ""
			}
			return c.Name + " code logs in to a service and calls " + what + " over what it walks: the account's records destroyed in bulk"
		},
		[]string{"python3 - <<'EOF'\nimport os\nfrom jira import JIRA\nj = JIRA('https://zork.atlassian.net', token_auth=os.environ['JIRA_TOKEN'])\nfor i in j.search_issues('project = OLD'):\n    i.delete()\nEOF",
			"ruby <<'RUBY'\nrequire 'zorkbill'\nclient = Zorkbill::Client.new(api_key: ENV.fetch('ZORKBILL_API_KEY'))\nclient.list_accounts.each do |a|\n  client.deactivate_account(account_id: a.id)\nend\nRUBY",
			`python3 -c "import os; from slack_sdk import WebClient; c=WebClient(token=os.environ['SLACK_TOKEN']); [c.files_delete(file=f['id']) for f in c.files_list()['files']]"`},
		[]string{"python3 - <<'EOF'\nimport os\nfrom jira import JIRA\nj = JIRA('https://zork.atlassian.net', token_auth=os.environ['JIRA_TOKEN'])\nfor i in j.search_issues('project = OLD'):\n    print(i.key)\nEOF",
			`python3 -c "import os; from slack_sdk import WebClient; c=WebClient(token=os.environ['SLACK_TOKEN']); c.files_delete(file='F1')"`,
			`python3 -c "import os; from slack_sdk import WebClient; c=WebClient(token=os.environ['SLACK_TOKEN']); [print(f['id']) for f in c.files_list()['files']]"`,
			"python3 - <<'EOF'\nimport os\nfrom jira import JIRA\nj = JIRA('http://localhost:8080', token_auth=os.environ['JIRA_TOKEN'])\nfor i in j.search_issues('project = OLD'):\n    i.delete()\nEOF"})
}
