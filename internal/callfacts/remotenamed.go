package callfacts

import (
	"net/url"
	"strings"
)

// A program warden has no table for, given a change verb (add, set,
// alter, apply, install, sync, enable, start, stop, void…) and an
// option that names the server it talks to (--db_uri=mongodb://10.45.0.5/x,
// --bootstrap-server kafka-a:9092, --server https://api.acme.io,
// --endpoint, --url): the change lands on that server, whoever else uses
// it. The verbs alone are too common to ask for (UnknownChange leaves
// them: tool add x is as often local); the named remote is what says the
// act leaves the machine. With no such option the reading stays as it
// was.

// remoteTargetOptions name the server an unknown client acts on.
var remoteTargetOptions = map[string]bool{
	"--host": true, "--hostname": true, "--server": true, "--servers": true, "-H": true,
	"--bootstrap-server": true, "--bootstrap-servers": true, "--broker": true, "--brokers": true, "--broker-list": true, "--zookeeper": true,
	"--db_uri": true, "--db-uri": true, "--dburi": true, "--uri": true, "--url": true, "--endpoint": true, "--endpoint-url": true,
	"--api-url": true, "--api_url": true, "--apiurl": true, "--base-url": true, "--base_url": true, "--server-url": true, "--server_url": true,
	"--api-host": true, "--api-endpoint": true, "--cluster-url": true, "--addr": true, "--address": true,
	"--connection-string": true, "--dsn": true, "--database-url": true, "--mongo-uri": true, "--redis-url": true,
	"--instance-url": true, "--site-url": true, "-h": true,
}

// remoteAccountOptions name the account, organization, workspace or
// tenant of a hosted service an unknown client acts in (--org acme,
// --workspace-id ws_42, --tenant contoso): whatever the value, the act
// lands in that shared account, not on this machine.
var remoteAccountOptions = map[string]bool{
	"--org": true, "--org-id": true, "--organization": true, "--organization-id": true, "--workspace-id": true,
	"--account-id": true, "--tenant": true, "--tenant-id": true, "--project-id": true, "--team-id": true,
}

// remoteChangeVerbs: the common change verbs of a client's subcommand or
// action option. Delete-like verbs are the destroy readers' (UnknownDestroy).
var remoteChangeVerbs = map[string]bool{
	"add": true, "set": true, "alter": true, "apply": true, "install": true, "uninstall": true, "sync": true,
	"enable": true, "disable": true, "assign": true, "unassign": true, "start": true, "stop": true, "restart": true,
	"void": true, "cancel": true, "create": true, "update": true, "put": true, "post": true, "patch": true, "modify": true,
	"edit": true, "change": true, "replace": true, "reset": true, "import": true, "register": true,
	"provision": true, "upgrade": true, "rotate": true, "grant": true, "revoke": true, "suspend": true, "resume": true,
	"pause": true, "unpause": true, "activate": true, "deactivate": true, "approve": true, "reject": true, "close": true,
	"reopen": true, "move": true, "rename": true, "upload": true, "push": true, "send": true, "trigger": true,
	"submit": true, "commit": true, "merge": true, "scale": true, "attach": true, "detach": true,
	"delete": true, "remove": true, "drop": true, "purge": true, "truncate": true, "flush": true, "kill": true,
	// what a scheduler, pipeline or certificate service does on its side
	// (jobs load, pipeline run, job rerun, cert renew, asset materialize)
	"load": true, "run": true, "rerun": true, "retry": true, "replay": true, "backfill": true, "materialize": true, "renew": true,
	"redeliver": true,
}

// copyNouns: what a create of makes a copy kept where the data is.
var copyNouns = map[string]bool{"backup": true, "backups": true, "snapshot": true, "snapshots": true}

// remoteReadWords before or among the first words make the act a read.
var remoteReadWords = map[string]bool{
	"list": true, "ls": true, "get": true, "show": true, "describe": true, "status": true, "info": true, "inspect": true,
	"view": true, "cat": true, "dump": true, "export": true, "print": true, "search": true, "find": true, "query": true,
	"check": true, "validate": true, "verify": true, "test": true, "diff": true, "plan": true, "preview": true, "help": true,
	"version": true, "watch": true, "tail": true, "logs": true, "log": true, "history": true, "whoami": true, "ping": true,
	"health": true, "stats": true, "top": true, "count": true, "read": true, "fetch": true, "download": true, "pull": true,
	"explain": true, "lint": true, "login": true, "completion": true, "config": true, "init": true, "list-all": true, "describe-all": true,
}

// RemoteNamedChange: "VERB on HOST" when c, a program warden has no
// table for, says a change verb (its first words, or an action option
// --alter, --add-config, --set) and an option names another machine as
// its server; "" otherwise. A host of this machine or a lab is left out
// here; a compose service or a dev/test name is left to the rule.
func (c *Cmd) RemoteNamedChange() (verb, host string) {
	if Known(c.Name) || strings.Contains(c.Name, "/") || strings.HasSuffix(c.Name, ".py") || strings.HasSuffix(c.Name, ".js") {
		return "", ""
	}
	host = c.remoteTargetOption()
	if host == "" || ThisMachine(host) || LabTarget(host, nil) {
		return "", ""
	}
	if c.DryRun() || c.asksHelp() {
		return "", ""
	}
	n, prev := 0, ""
	for _, p := range c.verbPos() {
		if optionValue(c.Args, p) {
			continue
		}
		if n++; n > 3 {
			break
		}
		l := strings.ToLower(p)
		if remoteReadWords[l] || checkWords[l] {
			return "", ""
		}
		if strings.Trim(l, "abcdefghijklmnopqrstuvwxyz-_:") != "" {
			break // an operand: a path, an id, a key=value
		}
		if remoteChangeVerbs[l] && p == l {
			if l == "create" && copyNouns[prev] {
				return "", "" // backup create, snapshot create: a copy kept where it is
			}
			verb = l
			break
		}
		prev = l
		for _, part := range strings.FieldsFunc(l, func(r rune) bool { return r == '-' || r == '_' || r == ':' }) {
			if remoteReadWords[part] {
				return "", "" // list-topics, get_config
			}
		}
		for _, part := range strings.FieldsFunc(l, func(r rune) bool { return r == '-' || r == '_' || r == ':' }) {
			if remoteChangeVerbs[part] {
				verb = l // add-user, topics:create
				break
			}
		}
		if verb != "" {
			break
		}
	}
	if verb == "" {
		verb = c.remoteActionOption()
	} else if c.readOption() {
		return "", "" // flux create source … --export: the change is only printed
	}
	if verb == "" {
		return "", ""
	}
	return verb, host
}

// remoteActionOption: an option of c that is a change verb of its own or
// starts with one (kafka-configs --alter, --add-config, --set-property,
// --create): "" for none, and when an option reads (--list, --describe).
func (c *Cmd) remoteActionOption() string {
	act := ""
	for _, a := range c.Args {
		if !strings.HasPrefix(a, "--") || len(a) < 4 {
			continue
		}
		name, _, _ := strings.Cut(strings.ToLower(a[2:]), "=")
		first, _, _ := strings.Cut(name, "-")
		if remoteReadWords[name] || remoteReadWords[first] || checkWords[first] || name == "dry-run" || name == "validate-only" {
			return ""
		}
		if act == "" && (remoteChangeVerbs[name] || remoteChangeVerbs[first] && first != "send" && first != "start" && first != "stop" && first != "reset") && !remoteTargetOptions["--"+name] {
			act = "--" + name
		}
	}
	return act
}

// remoteTargetOption is the host an option of c names as its server:
// the host of a URL, of host:port, of user@host; "" for none. Only a
// value the line shows counts.
func (c *Cmd) remoteTargetOption() string {
	for _, v := range c.OptValues(remoteTargetOptions) {
		if v == "" || strings.HasPrefix(v, "-") || strings.ContainsAny(v, "$`") {
			continue
		}
		if h := hostPart(v); h != "" {
			return h
		}
	}
	for _, v := range c.OptValues(remoteAccountOptions) {
		if v != "" && !strings.HasPrefix(v, "-") && !strings.ContainsAny(v, "/`") {
			return v // --org acme: the hosted service's account
		}
	}
	return ""
}

// hostPart: the host a server option's value names (a URL, host:port,
// user@host, a comma list's first), "" when it reads as no host (a
// word with no dot, colon or dash, a path).
func hostPart(v string) string {
	v, _, _ = strings.Cut(v, ",")
	if strings.Contains(v, "://") {
		u, err := url.Parse(v)
		if err != nil || u.Hostname() == "" {
			return ""
		}
		return u.Hostname()
	}
	if strings.HasPrefix(v, "/") || strings.HasPrefix(v, ".") || strings.HasPrefix(v, "~") {
		return ""
	}
	if _, after, ok := strings.Cut(v, "@"); ok {
		v = after
	}
	v, _, _ = strings.Cut(v, "/")
	h := v
	if i := strings.LastIndexByte(v, ':'); i > 0 && !strings.Contains(v[:i], ":") {
		h = v[:i]
	} else if !strings.ContainsAny(v, ".-") {
		return "" // a bare word (--target web, --site default): a name, not a host
	}
	if h == "" || strings.Trim(strings.ToLower(h), "abcdefghijklmnopqrstuvwxyz0123456789.-_") != "" {
		return ""
	}
	return h
}

// readOption: an option of c says the act only prints or checks
// (--export, --print, --dry-run, --validate-only, --plan).
func (c *Cmd) readOption() bool {
	for _, a := range c.Args {
		if !strings.HasPrefix(a, "--") {
			continue
		}
		name, _, _ := strings.Cut(strings.ToLower(a[2:]), "=")
		if name == "export" || name == "print" || name == "plan" || name == "validate-only" || name == "dry-run" || name == "dry" || name == "preview" || name == "check" || name == "diff" {
			return true
		}
	}
	return false
}
