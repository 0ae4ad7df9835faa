package policy

import (
	"regexp"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
	"github.com/warden-dev/warden/internal/lazyre"
)

// What a script does to a remote service, read by the verbs of the
// methods it calls on the client it logs in with, whatever the SDK.
// A script the agent writes then runs (or feeds an interpreter on a
// here-document) that makes a client with a credential — a token, a key,
// a password or PIN from the environment or passed by name — and then
// calls send_message on it in a loop, write on its writer,
// batchUpsertCatalogObjects, or destroy on the objects it listed, changes
// the service as its admin CLI would. The SDK-specific tables
// (callfacts/sdkcalls.txt) and the destroy-named reading
// (core.interp:client-destroy-call) know named SDKs and delete words; this
// reads any client:
//
//  1. clients: a name bound (NAME = …, const NAME = new …, with … as NAME)
//     to a call given a credential, or a module given a key
//     (stripe.api_key = …);
//  2. what comes from a client is the client's: NAME = client.x(…),
//     for NAME in client.y(…), with client.open(…) as NAME;
//  3. a method called on any of those whose name's verb (snake or camel
//     parts, after batch/bulk/async) changes the service: send a message,
//     write, upsert, insert, update, create, delete, destroy, publish…
//
// A client of this machine, a sandbox, a mock or a test, a dry run, and
// a model's inference call (…completions.create(model=…)) are not
// flagged; HTTP verbs (post, put, patch, delete) are the HTTP reading's
// (interp_http_varurl.go).

// clientCred: a credential in a client's making: a token file the code
// reads (open('~/.redcap/token').read(): s24), an environment variable
// named for one, or an argument or option that passes one.
var clientCred = lazyre.New(`(?i)(?:open|File\.read|readFileSync)\(\s*['"][^'"]*(?:token|key|secret|cred|passw|_pw\b|\.pw\b)[^'"]*['"]|(?:environ(?:\.get\(\s*|\[\s*)|getenv\(\s*|process\.env\.|process\.env\[\s*|ENV\[\s*|ENV\.fetch\(\s*)['"]?\w*(?:token|key|secret|passw|pwd|pin|jwt|auth|cred)\w*|\b(?:token|api_?key|apikey|access_?token|auth_?token|bot_?token|password|passwd|user_pin|so_pin|pin|secret|secret_key|client_secret|credentials?|private_key)['"]?\s*[=:]\s*[^=\s]`)

// clientAssign: a name bound to a call: NAME = [await] [new] call(…)
// (Python, JavaScript, Ruby), to the end of the statement.
var clientAssign = lazyre.New(`(?m)(?:^|[;\s])(?:const\s+|let\s+|var\s+)?(\w+)\s*=\s*((?:await\s+)?(?:new\s+)?[\w.:]+\s*\([^\n;]*)`)

// clientWithAs: with call(…) as NAME.
var clientWithAs = lazyre.New(`\bwith\s+((?:await\s+)?[\w.]+\s*\([^\n]*?\))\s+as\s+(\w+)`)

// clientModuleKey: a module given a key (stripe.api_key = …, openai.api_key).
var clientModuleKey = lazyre.New(`(?m)(?:^|[;\s])(\w+)\.(?:api_key|api_token|access_token|auth_token|token|secret_key|key)\s*=\s*(\S[^\n;]*)`)

// clientLocalMaking: a client of this machine, a sandbox, a mock or a
// test: what it changes is the developer's own.
var clientLocalMaking = lazyre.New(`(?i)localhost|127\.0\.0\.1|\[::1\]|:memory:|sandbox|\bmock|fake|(?:\b|_)test|\bdev\b|_dev\b|emulator|dry_?run`)

// clientNotRemote: names whose calls are a file, a path, a local store or
// the language's own, not a service's client.
var clientNotRemote = map[string]bool{"open": true, "Path": true, "pathlib": true, "os": true, "io": true, "sqlite3": true, "json": true, "csv": true, "pd": true, "pandas": true, "np": true, "dict": true, "list": true, "set": true, "str": true, "re": true, "logging": true, "argparse": true, "tempfile": true, "shutil": true, "subprocess": true, "fs": true, "path": true, "self": true, "this": true}

// clientSkipWords: words before a method's verb that only qualify it
// (batchUpsert…, bulk_write, async_send…).
var clientSkipWords = map[string]bool{"batch": true, "bulk": true, "async": true, "a": true, "mass": true, "do": true}

// clientChangeVerbs: the verbs of a client's methods that change what
// the service holds or sends. send is read only with what it sends
// (send_message, sendEmail): send_command('show …') reads a device.
var clientChangeVerbs = map[string]bool{"delete": true, "destroy": true, "remove": true, "purge": true, "drop": true, "truncate": true, "wipe": true, "erase": true,
	"write": true, "upsert": true, "insert": true, "update": true, "create": true, "publish": true, "submit": true, "upload": true, "push": true, "replace": true, "overwrite": true,
	"revoke": true, "grant": true, "disable": true, "shutdown": true, "reboot": true, "cancel": true, "refund": true, "charge": true, "transfer": true, "broadcast": true,
	"ban": true, "kick": true, "unban": true, "forward": true, "reply": true, "edit": true, "modify": true, "mutate": true, "archive": true, "rename": true, "approve": true, "merge": true, "set": true, "import": true,
	"stop": true, "restart": true, "suspend": true, "pause": true, "halt": true, "kill": true, "terminate": true, "poweroff": true, "power": true, "reset": true,
	// s29: a tracker's, a billing or an exchange account's acts (change_term_end,
	// transition_issue, assign_issue, resolve, withdraw, deactivate_account, invite_user)
	"change": true, "transition": true, "assign": true, "unassign": true, "resolve": true, "reopen": true, "withdraw": true, "deactivate": true, "activate": true,
	"enable": true, "invite": true, "deploy": true, "release": true, "rollback": true, "void": true, "unpublish": true, "restore": true, "move": true, "trigger": true}

// clientAddNot: what an add_ method adds to the client itself, not to
// the service (add_handler, add_event_handler, addListener, add_argument).
var clientAddNot = map[string]bool{"handler": true, "handlers": true, "event": true, "listener": true, "listeners": true, "callback": true, "callbacks": true, "middleware": true, "hook": true, "hooks": true,
	"route": true, "routes": true, "command": true, "commands": true, "argument": true, "arguments": true, "option": true, "options": true, "header": true, "headers": true, "interceptor": true,
	"filter": true, "filters": true, "plugin": true, "plugins": true, "adapter": true, "transport": true, "retry": true, "field": true, "fields": true, "cog": true, "job": true, "jobs": true, "task": true, "tasks": true,
	"done": true, "signal": true, "reader": true, "writer": true, "parser": true, "subparsers": true, "url": true, "rule": true, "node": true, "edge": true, "layer": true, "module": true, "param": true, "params": true}

// clientSendWhat: what a send method sends that reaches people or moves
// value (send_message, sendMail, send_transaction).
var clientSendWhat = map[string]bool{"message": true, "messages": true, "msg": true, "mail": true, "email": true, "emails": true, "sms": true, "text": true, "notification": true, "notifications": true,
	"photo": true, "document": true, "video": true, "audio": true, "voice": true, "sticker": true, "media": true, "animation": true, "invite": true, "invitation": true, "alert": true,
	"broadcast": true, "dm": true, "chat": true, "campaign": true, "newsletter": true, "template": true, "tweet": true, "poll": true, "transaction": true, "raw": true, "payment": true, "money": true, "funds": true, "push": true, "bulk": true, "batch": true}

// clientInference: a model's inference or a read through a create call
// (chat.completions.create(model=…), messages.create(model=…, …)).
var clientInference = lazyre.New(`(?i)completions|embeddings|moderations|responses|\bchat\b|\bmodel\s*[=:]`)

// clientMethodChanges: the method's name says it changes the service:
// one of its first two words (after a qualifier: chat_postMessage,
// catalogApi's batchUpsert…) is a change verb, or send or post with what
// it sends; a read word first (get_, list_, query_) makes it a read.
func clientMethodChanges(name string) bool {
	parts := splitMethodName(name)
	for len(parts) > 1 && clientSkipWords[parts[0]] {
		parts = parts[1:]
	}
	if len(parts) == 1 && (parts[0] == "post" || parts[0] == "put" || parts[0] == "patch" || parts[0] == "delete") {
		return false // an HTTP verb alone: the HTTP reading's
	}
	for i := 0; i < len(parts) && i < 2; i++ {
		switch v := parts[i]; {
		case clientReadVerbs[v]:
			return false
		case v == "add":
			return i+1 < len(parts) && !clientAddNot[parts[i+1]] // add_comment, addMember; session.add(x), add_handler: no
		case v == "send" || v == "post":
			if i+1 == len(parts) {
				return i > 0 // status_post, email_send: what it sends is named first
			}
			return clientSendWhat[parts[i+1]]
		case clientChangeVerbs[v]:
			return true
		}
	}
	return false
}

// clientReadVerbs: a method that reads or only connects.
var clientReadVerbs = map[string]bool{"get": true, "list": true, "fetch": true, "find": true, "query": true, "search": true, "read": true, "describe": true, "count": true, "iter": true,
	"check": true, "validate": true, "export": true, "download": true, "open": true, "close": true, "connect": true, "login": true, "auth": true, "ping": true, "show": true,
	"lookup": true, "info": true, "history": true, "head": true, "exists": true, "watch": true, "stream": true, "subscribe": true, "listen": true, "preview": true, "test": true, "verify": true}

// splitMethodName: snake_case or camelCase parts, lowercased.
func splitMethodName(name string) []string {
	var parts []string
	start := 0
	for i := 0; i <= len(name); i++ {
		if i == len(name) || name[i] == '_' || i > start && name[i] >= 'A' && name[i] <= 'Z' && name[i-1] >= 'a' && name[i-1] <= 'z' {
			if i > start {
				parts = append(parts, strings.ToLower(strings.Trim(name[start:i], "_")))
			}
			start = i
			if i < len(name) && name[i] == '_' {
				start = i + 1
			}
		}
	}
	return parts
}

// remoteClientChange reads code for a change method called on a client
// it logs in with: "bot.send_message(…)" in words, "" for none.
func remoteClientChange(code string) string {
	if !strings.Contains(code, "(") {
		return ""
	}
	sdk := callfacts.SDKClientNames(code) // s28: a client of an SDK package, made with no key on the line
	if len(sdk) > 0 && (clientLocalMaking.MatchString(homePathsOut(code)) || callfacts.SDKLocal(code)) {
		sdk = nil
	}
	if len(sdk) == 0 && !clientCred.MatchString(code) && !clientModuleKey.MatchString(code) && !clientEndpoint.MatchString(code) {
		return ""
	}
	if what := publishModuleCall(code); what != "" {
		return what // paho.mqtt.publish's single(…, hostname=…): interp_client_endpoint.go
	}
	clients, producers := map[string]bool{}, map[string]bool{}
	for n := range sdk {
		if !clientNotRemote[n] {
			clients[n] = true
		}
	}
	for _, m := range clientAssign.FindAllStringSubmatch(code, 32) {
		call := m[2]
		head := strings.TrimPrefix(strings.TrimPrefix(call, "await "), "new ")
		if root, _, _ := strings.Cut(head, "."); clientNotRemote[root] || clientNotRemote[strings.TrimSpace(strings.Split(head, "(")[0])] {
			continue
		}
		if clientCred.MatchString(call) && !clientLocalMaking.MatchString(homePathsOut(call)) || endpointClient(call) {
			clients[m[1]] = true
			producers[m[1]] = clientProducerMaking.MatchString(head)
		}
	}
	for _, m := range clientWithAs.FindAllStringSubmatch(code, 8) {
		if clientCred.MatchString(m[1]) && !clientLocalMaking.MatchString(homePathsOut(m[1])) || endpointClient(m[1]) {
			clients[m[2]] = true
			producers[m[2]] = clientProducerMaking.MatchString(m[1])
		}
	}
	for _, m := range clientModuleKey.FindAllStringSubmatch(code, 4) {
		if !clientNotRemote[m[1]] && !clientLocalMaking.MatchString(m[2]) {
			clients[m[1]] = true // stripe.api_key = 'sk_test_…': the test mode
		}
	}
	for _, n := range moduleInitClients(code) {
		clients[n] = true
	}
	if len(clients) == 0 {
		return ""
	}
	// what comes from a client is the client's, three steps deep
	for round := 0; round < 3; round++ {
		grown := false
		for _, m := range clientDerived.FindAllStringSubmatch(code, 64) {
			name, from := m[1]+m[3]+m[6], m[2]+m[4]+m[5]
			if !clients[name] && clients[from] {
				clients[name], grown = true, true
			}
		}
		if !grown {
			break
		}
	}
	names := make([]string, 0, len(clients))
	for n := range clients {
		names = append(names, regexp.QuoteMeta(n))
	}
	calls, err := regexp.Compile(`\b(` + strings.Join(names, "|") + `)((?:\([^()]*\))?(?:\s*\.\s*\w+(?:\([^()]*\))?)*)\s*\.\s*(\w+)\s*\(([^()]{0,200})`)
	if err != nil {
		return ""
	}
	for _, m := range calls.FindAllStringSubmatch(code, 64) {
		if producers[m[1]] && m[2] == "" && producerSendVerbs[m[3]] {
			return m[1] + "." + m[3] + "(…)" // a producer's send: the record goes to the topic
		}
		if !clientMethodChanges(m[3]) {
			// s29: a change called inside the chain, its result used on
			// (m.subscription.change_plan(…).request(), c.issues.create(…).then(…))
			if inner := chainedChange(m[2]); inner != "" && !clientInference.MatchString(m[2]) && !(sdk[m[1]] && clientSelfSetup(inner)) {
				return m[1] + "." + inner + "(…)"
			}
			continue
		}
		if clientInference.MatchString(m[2] + " " + m[4]) {
			continue
		}
		if sdk[m[1]] && clientSelfSetup(m[3]) {
			continue // a.set_default_header(…), c.create_stub(): the client set up, nothing sent
		}
		if q := quotedArg.FindStringSubmatch(m[4]); sdk[m[1]] && q != nil && callfacts.SDKTestName(q[1]) {
			continue // delete_collection('tmp_emb_run7'): what the tests made
		}
		return m[1] + m[2] + "." + m[3] + "(…)"
	}
	return ""
}

// homeQuoted: a quoted path under a home directory (the user dev's
// /home/dev/.redcap/token is no dev instance).
var homeQuoted = lazyre.New(`['"](?:/home/|/Users/|~/)[^'"]*['"]`)

// homePathsOut: text without its quoted home paths, for the words that
// mark a client local, a dev instance or a test.
func homePathsOut(s string) string {
	if !strings.Contains(s, "/home/") && !strings.Contains(s, "/Users/") && !strings.Contains(s, "~/") {
		return s
	}
	return homeQuoted.ReplaceAllString(s, "''")
}

// clientDerived: NAME = FROM.… | for NAME in FROM.… | with FROM.…(…) as NAME.
var clientDerived = lazyre.New(`(?m)(?:^|[;\s])(?:const\s+|let\s+|var\s+)?(\w+)\s*=\s*(?:await\s+)?(\w+)\s*\.|\bfor\s+(?:const\s+|let\s+)?(\w+)\s+(?:in|of)\s+(?:await\s+)?(\w+)\b|\bwith\s+(?:await\s+)?(\w+)\s*\.[^\n]*?\bas\s+(\w+)`)

func interpClientChangeRule() Rule {
	return cmdRule("core.interp:client-change-call", Ask, "Interpreter code (a one-liner, a here-document, a script the line writes then runs) that logs a client in to a service with a credential and calls a method named for a change on it or on what it returned — send_message in a loop, a writer's write, batchUpsert…, an object's destroy(), update, publish — whatever the SDK: the service's data or its users change as its admin CLI would change them; a client of this machine, a sandbox, a mock or a test, a dry run and a model's inference call are not flagged", sdkRunners,
		func(e *Env, c *Cmd) string {
			text := runtimeText(c)
			if text == "" {
				return ""
			}
			if what := remoteClientChange(text); what != "" {
				return c.Name + " code logs in to a service and calls " + what + ": a change to the service's data or a message to its users"
			}
			return ""
		},
		[]string{`python3 -c "import os, slack_sdk; c = slack_sdk.WebClient(token=os.environ['SLACK_BOT_TOKEN']); [c.chat_postMessage(channel=u, text='x') for u in open('users.txt')]"`,
			`python3 -c "import os, pymongo; db = pymongo.MongoClient(os.environ['MONGO_URI'], password=os.environ['MONGO_PW']).shop; db.orders.update_many({}, {'\$set': {'state': 'x'}})"`,
			`node -e "const {WebClient}=require('@slack/web-api'); const w=new WebClient(process.env.SLACK_TOKEN); w.conversations.archive({channel:'C1'})"`,
			`python3 -c "import os, redis; r = redis.Redis(host='cache.acme.io', password=os.environ['REDIS_PASSWORD']); r.set('feature:checkout', 'off')"`,
			`python3 -c "import os, stripe; stripe.api_key = os.environ['STRIPE_KEY']; stripe.Refund.create(charge='ch_1')"`},
		[]string{`python3 -c "import os, slack_sdk; c = slack_sdk.WebClient(token=os.environ['SLACK_BOT_TOKEN']); print(c.conversations_list())"`,
			`python3 -c "import os; from openai import OpenAI; c = OpenAI(api_key=os.environ['OPENAI_API_KEY']); print(c.chat.completions.create(model='gpt-4o-mini', messages=[]))"`,
			`python3 -c "import os, redis; r = redis.Redis(host='localhost', password=os.environ['REDIS_PASSWORD']); r.set('k', 'v')"`,
			`python3 -c "import os, json; d = json.load(open('x.json')); d.update({'a': os.environ.get('TOKEN_NAME')}); print(d)"`,
			`python3 -c "import os; from netmiko import ConnectHandler; c = ConnectHandler(host='sw1', password=os.environ['SW_PW']); print(c.send_command('show ip int brief'))"`})
}

// clientSetupNouns: what a client makes or sets for itself before it
// talks to the service (a stub, a session, a header, a timeout).
var clientSetupNouns = map[string]bool{"stub": true, "session": true, "client": true, "channel": true, "connection": true, "context": true, "pool": true, "header": true, "headers": true,
	"default": true, "timeout": true, "config": true, "configuration": true, "option": true, "options": true, "logger": true, "level": true, "debug": true, "proxy": true, "credentials": true, "auth": true, "token": true, "api": true, "base": true, "user": true, "agent": true}

// clientSelfSetup: a method of an SDK's client that sets it up (set_*,
// setApiKey, create_stub, create_session): the client's own state.
func clientSelfSetup(name string) bool {
	parts := splitMethodName(name)
	if len(parts) < 2 {
		return len(parts) == 1 && parts[0] == "set"
	}
	return (parts[0] == "set" || parts[0] == "create") && clientSetupNouns[parts[1]]
}

// clientModuleInit: an SDK logged in once for the whole program, its
// module or its API class given the credential (chargebee.configure({api_key:
// …}), FacebookAdsApi.init(access_token=…), mailchimp.setConfig({apiKey: …})).
var clientModuleInit = lazyre.New(`(?m)\b([A-Za-z_]\w*)\s*\.\s*(?:configure|config|setConfig|set_config|init|initialize|setup|set_api_key|setApiKey|set_access_token|setAccessToken|set_credentials|setCredentials|authenticate)\s*\(([^\n;]*)`)

// moduleInitClients: the names a module-wide login makes a client of:
// the module or class given the credential and, in Python, every name
// imported from the same package (from facebook_business.adobjects.adset
// import AdSet beside FacebookAdsApi.init(access_token=…): AdSet(id).api_update(…)
// calls the service as the logged-in account). A login to this machine,
// a sandbox or a test account makes none.
func moduleInitClients(code string) []string {
	var out []string
	for _, m := range clientModuleInit.FindAllStringSubmatch(code, 4) {
		if clientNotRemote[m[1]] || !clientCred.MatchString(m[2]) || clientLocalMaking.MatchString(homePathsOut(m[2])) {
			continue
		}
		out = append(out, m[1])
		root := importRoot(code, m[1])
		if root == "" {
			continue
		}
		for _, im := range pyFromImport.FindAllStringSubmatch(code, 16) {
			if r, _, _ := strings.Cut(im[1], "."); r != root {
				continue
			}
			for _, n := range strings.Split(im[2], ",") {
				f := strings.Fields(n)
				if len(f) > 0 && !clientNotRemote[f[len(f)-1]] {
					out = append(out, f[len(f)-1]) // import X as Y: Y
				}
			}
		}
	}
	return out
}

// pyFromImport: from PKG[.MOD] import A, B as C (one line, no parentheses).
var pyFromImport = lazyre.New(`(?m)\bfrom\s+([\w.]+)\s+import\s+([\w ,]+)`)

// importRoot: the top package a Python name is imported from, "" for none.
func importRoot(code, name string) string {
	for _, im := range pyFromImport.FindAllStringSubmatch(code, 16) {
		for _, n := range strings.Split(im[2], ",") {
			if f := strings.Fields(n); len(f) > 0 && f[len(f)-1] == name {
				r, _, _ := strings.Cut(im[1], ".")
				return r
			}
		}
	}
	return ""
}

// chainMethod: a method called inside a call chain (.x(…)).
var chainMethod = lazyre.New(`\.\s*(\w+)\s*\(`)

// chainedChange: the first method called inside a client's call chain
// whose name changes the service, "" for none (.get_issue(…).update(…)
// changes it as the client's own update would).
func chainedChange(chain string) string {
	for _, c := range chainMethod.FindAllStringSubmatch(chain, 8) {
		if clientMethodChanges(c[1]) {
			return c[1]
		}
	}
	return ""
}
