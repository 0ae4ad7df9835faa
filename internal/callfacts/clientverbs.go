package callfacts

import (
	"regexp"
	"strings"

	"github.com/warden-dev/warden/internal/lazyre"
)

// Interpreter code that hands a service's client a verb, whatever the
// vendor: the SDK's generic dispatch is given the admin CLI's own
// subcommand as a string (P4Python's p4.run('obliterate', …), pyrfc's
// conn.call('BAPI_USER_DELETE'), a Ruby client's run('purge')), a
// command-sending function sends a command to the system the SDK drives
// (OpenC3/COSMOS cmd('TGT FSW_FORMAT'), itoolkit's iCmd('x', 'ENDSBS …')),
// or a variable bound to a remote client calls a method named for a change
// (sg.update('Version', id, …), client.kill(…)). The verb is read with
// verbs.txt's destroy and change words and the IBM i CL verbs, so any
// vendor's SDK is read the same; the CLI that does the same asks.

// dispatchCall: receiver.method('first literal' where the method is an
// SDK's generic way to run one of the service's own commands.
var dispatchCall = lazyre.New(`\b(\w+)\s*\.\s*(run|run_cmd|run_command|cmd|command|call|invoke|send_command|execute_command|exec_cmd)\s*\(\s*[rbf]?['"]([^'"]{2,120})['"]`)

// dispatchOpCall: an SDK's generic call given the operation by name in
// an object (sp.callAPI({operation: 'deleteListingsItem', …}),
// client.invoke({action: 'RetireItem'}), api.request({op: 'purge'})):
// the operation's name is the service's own, read as dispatchCall's.
// No local runner takes an operation so, so dispatchSkip does not apply.
var dispatchOpCall = lazyre.New(`\b(\w+)\s*\.\s*(callAPI|callApi|call_api|call|invoke|execute|request|run|send)\s*\(\s*\{\s*['"]?(?:operation|operationId|operation_id|action|op|command|cmd)['"]?\s*:\s*['"]([^'"]{2,120})['"]`)

// dispatchSkip: receivers whose run/call runs a local program or a local
// function (subprocess.run, os.system, asyncio.run, app.run, a click
// context's invoke): the shell readers read those.
var dispatchSkip = map[string]bool{"subprocess": true, "os": true, "sh": true, "asyncio": true, "trio": true, "anyio": true, "app": true, "ctx": true, "loop": true, "uvicorn": true, "sp": true, "shell": true, "Open3": true, "child_process": true, "cp": true, "execa": true, "plumbum": true, "local": true, "fabric": true, "invoke": true, "runner": true, "CliRunner": true, "unittest": true, "pytest": true, "main": true, "cli": true, "Process": true, "sched": true, "schedule": true, "threading": true, "mp": true, "pool": true, "executor": true, "cProfile": true, "profile": true, "timeit": true, "doctest": true, "module": true, "runpy": true, "code": true, "self": true}

// commandFunc: a bare function of an SDK named for sending a command
// (cmd, cmd_no_hazardous_check, iCmd, send_command), its string literals.
var commandFunc = lazyre.New(`(?:^|[^\w.])(cmd(?:_\w+)?|i[Cc]md|command|send_command|send_cmd)\s*\(\s*((?:[rbf]?(?:'[^']*'|"[^"]*")\s*,?\s*){1,3})`)

// commandImported: the code imports its names from an SDK module (from
// openc3.script import *, from itoolkit import iCmd), so a bare cmd(…)
// is the SDK's, not a function the snippet defines.
var commandImported = lazyre.New(`\bfrom\s+[\w.]+\s+import\s+(?:\*|[^\n;]*\b(?:cmd\w*|i[Cc]md|command|send_command|send_cmd)\b)|require\(['"][^'"]+['"]\)`)

// clientBound: a variable bound to a client of a remote service: a class
// of a module made with a URL, a key, a token, a destination or a DSN.
var clientBound = lazyre.New(`\b(\w+)\s*=\s*(?:[\w.]+\.)?[A-Z]\w*(?:::[A-Z]\w*)*(?:\.new)?\s*\(([^\n;]*?(?:://|api_key|apikey|token|dest\s*=|DSN=|password|secret|host\s*=|server\s*=)[^\n;]*)`)

// clientMethodExtra: method names that change a service's records though
// verbs.txt does not list them alone (update is a common local word
// everywhere else; kill ends a job or session the service runs).
var clientMethodExtra = map[string]bool{"update": true, "kill": true, "batch_update": true, "bulk_update": true, "update_many": true, "updateMany": true}

// clientMethodChange: the change verbs a client's method starts with
// that act on the service's state (a job stopped, a user disabled, a
// release published). verbs.txt's wider change words (send, import,
// upload) name a client's ordinary traffic as often (netmiko's
// send_command('show …')), so a method's name is held to these.
var clientMethodChange = map[string]bool{"stop": true, "restart": true, "shutdown": true, "suspend": true, "disable": true, "revoke": true, "grant": true, "submit": true, "publish": true, "deploy": true, "rollback": true, "reboot": true, "deactivate": true, "failover": true, "transfer": true, "refund": true, "void": true, "ban": true, "freeze": true}

// ClientVerbCall reads code for a verb handed to a remote client: what
// it does in words (p.run('obliterate'), cmd('SKY3 FSW_FORMAT …'),
// sg.update(…)) and whether the verb destroys; "" for none.
func ClientVerbCall(code string) (string, bool) {
	if !strings.Contains(code, "(") {
		return "", false
	}
	for _, m := range dispatchCall.FindAllStringSubmatch(code, 8) {
		if dispatchSkip[m[1]] {
			continue
		}
		if w, d := literalVerb(m[3], false); w != "" {
			return m[1] + "." + m[2] + "('" + w + "')", d
		}
	}
	for _, m := range dispatchOpCall.FindAllStringSubmatch(code, 8) {
		if w, d := literalVerb(m[3], false); w != "" {
			return m[1] + "." + m[2] + "({operation: '" + w + "'})", d
		}
	}
	if commandImported.MatchString(code) {
		for _, m := range commandFunc.FindAllStringSubmatch(code, 8) {
			if s, d, ok := commandSent(m[2]); ok {
				return m[1] + "(" + short(s) + ")", d
			}
		}
	}
	for _, m := range withLoopClients(code, clientBound.FindAllStringSubmatch(code, 4)) {
		re, err := regexp.Compile(`\b` + regexp.QuoteMeta(m[1]) + `(?:\.\w+)*\.(\w+)\s*\(`)
		if err != nil {
			continue
		}
		for _, c := range re.FindAllStringSubmatch(code, 16) {
			if w, d := methodVerb(c[1]); w != "" {
				return m[1] + "." + c[1] + "(…)", d
			}
		}
	}
	return sdkClientCall(code) // a client of an SDK package made with no URL or key (interp_sdkclients.go)
}

// literalVerb: the verb a dispatch literal's first word names ('obliterate',
// 'BAPI_USER_DELETE', 'ENDSBS …'), "" when it names none; read words
// before it ('list_deleted') make it a read.
func literalVerb(lit string, anyWord bool) (string, bool) {
	f := strings.Fields(lit)
	if len(f) == 0 {
		return "", false
	}
	if v := clVerb(f[0], true); v != "" {
		return f[0], true
	}
	if clVerb(f[0], false) != "" {
		return f[0], false
	}
	words := f[:1]
	if anyWord {
		words = f
		if len(words) > 3 {
			words = words[:3]
		}
	}
	t := destroyVerbs()
	for _, w := range words {
		parts := camelParts(w) // 'StopStream', 'deleteUser': an operation's name in camelCase
		if parts == nil {
			parts = strings.FieldsFunc(strings.ToLower(w), func(r rune) bool { return r == '_' || r == '-' || r == '.' || r == ':' })
		}
		for _, p := range parts {
			if t.reads[p] {
				return "", false
			}
			if t.verbs[p] {
				return w, true
			}
			if t.changes[p] {
				return w, false
			}
		}
	}
	return "", false
}

// quotedLits: the '…' and "…" literals of a call's arguments.
var quotedLits = lazyre.New(`'([^']*)'|"([^"]*)"`)

// commandSent: the command an SDK's command function sends, from its
// literals: an IBM i CL command is read by its verb (DSPSBSD displays),
// any other command sent to the system the SDK drives changes it, and
// destroys when a destroy word (format, erase, purge) names it.
func commandSent(args string) (string, bool, bool) {
	lits := quotedLits.FindAllStringSubmatch(args, 3)
	var last string
	for _, l := range lits {
		s := l[1] + l[2]
		f := strings.Fields(s)
		if len(f) == 0 {
			continue
		}
		if clVerb(f[0], true) != "" {
			return s, true, true
		}
		if clVerb(f[0], false) != "" {
			return s, false, true
		}
		if len(f[0]) >= 3 && clReads[f[0][:3]] && strings.ToUpper(f[0]) == f[0] {
			return "", false, false // DSPSBSD SBSD(QBATCH): a display
		}
		last = s
	}
	if last == "" || len(strings.Fields(last)) < 2 {
		return "", false, false // cmd('ls'): one word is no command to a target
	}
	_, d := literalVerb(strings.ReplaceAll(last, "_", " "), true)
	for _, w := range strings.FieldsFunc(strings.ToLower(last), func(r rune) bool { return r == '_' || r == ' ' }) {
		if w == "format" || w == "erase" || w == "wipe" || w == "purge" {
			d = true
		}
	}
	return last, d, true
}

// methodVerb: a remote client's method named for a destroy or change
// (update, kill, delete_version, purgeQueue), "" for none; a read word in
// it (list_deleted, get_update_status) makes it a read.
func methodVerb(name string) (string, bool) {
	if clientMethodExtra[name] {
		return name, false
	}
	parts := camelParts(name)
	if parts == nil {
		parts = strings.Split(strings.ToLower(name), "_")
	}
	t := destroyVerbs()
	if len(parts) == 0 || t.reads[parts[0]] || parts[0] == "find" || parts[0] == "fetch" {
		return "", false
	}
	if t.verbs[parts[0]] {
		return name, true
	}
	if clientMethodExtra[parts[0]] || clientMethodChange[parts[0]] || remoteInvoke(parts) {
		return name, false
	}
	if len(parts) >= 2 && !t.changes[parts[0]] && t.verbs[parts[1]] && !t.reads[parts[1]] {
		return name, true // the noun first (queue_purge, topic_delete, files_delete_v2): what it destroys, then the verb
	}
	return "", false
}
