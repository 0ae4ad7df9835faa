package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// A command that destroys something "outside the machine" asks because
// what it removes belongs to others or to production. When every
// endpoint the command names is this machine — a dev server or data store
// on localhost, an emulator (LocalStack, the Firebase emulator), a
// throwaway cluster (kind, minikube, k3d, Docker Desktop) — the thing it
// removes is the developer's own scratch state, like a file under /tmp.
// Wiping a local store whole or by pattern (FLUSHALL, _all, logs-*)
// still asks: that is
// rarely what a test needs.

// endpointOptions name the server a CLI talks to; their value is a URL or
// a host[:port].
var endpointOptions = []string{"--endpoint-url", "--endpoint", "--bootstrap-server", "-http-addr", "--http-addr",
	"--addr", "--address", "--url", "--server", "--host", "--hostname", "--uri", "--endpoints", "-address", "-addr", "--brokers"}

// progHostOptions are one program's options naming the server or node it
// talks to (rabbitmqadmin -H localhost, rabbitmqctl -n rabbit@localhost).
var progHostOptions = map[string]map[string]bool{"rabbitmqadmin": {"-H": true}, "rabbitmqctl": {"-n": true, "--node": true},
	"rabbitmq-plugins": {"-n": true, "--node": true}, "rabbitmq-diagnostics": {"-n": true, "--node": true}, "consul": {"-http-addr": true},
	"mcrcon": {"-H": true}, "rcon": {"-a": true, "--address": true}} // game-server consoles: -H localhost is the dev server on this machine

// progHostArgs are programs whose Nth positional names the host they
// send to (oscsend HOST PORT PATH): a show-control message sent to
// localhost reaches a program on this machine, not a console on stage.
var progHostArgs = map[string]int{"oscsend": 0, "sendosc": 0}

// hostFlagCLIs take -h as the host (not help).
var hostFlagCLIs = map[string]bool{"redis-cli": true, "valkey-cli": true, "keydb-cli": true, "psql": true, "mysql": true,
	"mariadb": true, "clickhouse-client": true, "mongosh": true, "mongo": true, "cqlsh": true, "aql": true, "nodetool": true}

// localKubeContexts are the context names throwaway local clusters use.
var localKubeContexts = []string{"kind-", "minikube", "docker-desktop", "docker-for-desktop", "k3d-", "rancher-desktop", "colima", "orbstack", "microk8s"}

// localOnly reports whether c names at least one endpoint and every one is
// on this machine, and it does not wipe a store whole.
func localOnly(c *Cmd) bool {
	n := 0
	local := true
	see := func(v string) {
		if v == "" {
			return
		}
		n++
		for rest := v; rest != ""; {
			h, r, _ := strings.Cut(rest, ",") // --endpoints=localhost:2379,etcd-2.prod:2379: every one
			h = sqlServerHost(h)
			if h == "" {
				rest = r
				continue // localhost,14333: SQL Server's port after the comma
			}
			if !isLocalEndpoint(h) && !fileDatabaseURL(h) {
				local = false
			}
			rest = r
		}
	}
	if o, v, ok := strings.Cut(c.Remote, "="); ok && o != "--context" && o != "--kube-context" {
		see(v)
	}
	if at, ok := progHostArgs[c.Name]; ok && at < len(c.Pos) {
		see(c.Pos[at])
	}
	for i, a := range c.Args {
		switch {
		case strings.Contains(a, "://"):
			see(a)
		case strings.HasPrefix(a, "localhost:") || strings.HasPrefix(a, "127.0.0.1"):
			see(a)
		}
		name, val, hasVal := strings.Cut(a, "=")
		isOpt := false
		for _, o := range endpointOptions {
			if name == o {
				isOpt = true
			}
		}
		if hostFlagCLIs[c.Name] && name == "-h" || progHostOptions[c.Name][name] || c.PowerShell && psServerParam(name) {
			isOpt = true
		}
		if !isOpt {
			continue
		}
		if !hasVal && i+1 < len(c.Args) {
			val = c.Args[i+1]
		}
		if !strings.Contains(val, "://") { // a URL was seen above
			see(val)
		}
	}
	for _, o := range []string{"--context", "--kube-context"} {
		if v := optValue(c, o); v != "" {
			n++
			if !localKubeContext(v) {
				local = false
			}
		}
	}
	return n > 0 && local && !wipesWhole(c)
}

// psServerParams are the parameters by which PowerShell cmdlets name the
// server or instance they act on (dbatools' -SqlInstance, SqlServer's
// -ServerInstance, -ComputerName, -Server), lowered: PowerShell reads
// parameter names in any case.
var psServerParams = map[string]bool{"-sqlinstance": true, "-serverinstance": true, "-computername": true, "-server": true, "-sqlserver": true, "-instance": true}

func psServerParam(name string) bool {
	return len(name) > 4 && len(name) < 16 && psServerParams[strings.ToLower(name)]
}

// sqlServerHost is the host of one of SQL Server's instance names:
// localhost\SQLEXPRESS (a named instance), .\SQLEXPRESS, (local) and
// (localdb)\MSSQLLocalDB (this machine's), "" for a port alone (the 14333
// of localhost,14333). Any other value comes back as it is.
func sqlServerHost(h string) string {
	t := strings.Trim(h, `"' `)
	if t != "" && strings.Trim(t, "0123456789") == "" {
		return ""
	}
	if i := strings.IndexByte(t, '\\'); i > 0 {
		t = t[:i]
	} else if i == 0 {
		return h
	}
	switch strings.ToLower(strings.TrimPrefix(t, "tcp:")) {
	case ".", "(local)", "(localdb)":
		return "localhost"
	}
	if t != strings.Trim(h, `"' `) {
		return t
	}
	return h
}

// optValue is the value of option o ("o v" or "o=v"), "" when absent;
// also when it stood before the subcommand (Cmd.Remote).
func optValue(c *Cmd, o string) string {
	if v, ok := cutOpt(c.Remote, o); ok {
		return v
	}
	for i, a := range c.Args {
		if a == o && i+1 < len(c.Args) {
			return c.Args[i+1]
		}
		if v, ok := cutOpt(a, o); ok {
			return v
		}
	}
	return ""
}

func localKubeContext(v string) bool {
	v = strings.ToLower(v)
	for _, p := range localKubeContexts {
		if v == strings.TrimSuffix(p, "-") || strings.HasPrefix(v, p) && strings.HasSuffix(p, "-") {
			return true
		}
	}
	return false
}

// isLocalEndpoint: a URL or host[:port] on this machine.
//
// 127.x counts only as an address: 127.0.0.1.attacker.example is a name
// anyone can register.
// fileDatabaseURL: a database URL naming a file on this machine
// (sqlite:///sweeps/optuna.db, sqlite+aiosqlite:///./app.db,
// duckdb:///data/x.duckdb): the store is a local file, not a server.
func fileDatabaseURL(v string) bool {
	scheme, rest, ok := strings.Cut(strings.ToLower(v), "://")
	if !ok || !strings.HasPrefix(rest, "/") {
		return false // sqlite://host/…: not a file path
	}
	scheme, _, _ = strings.Cut(scheme, "+")
	return scheme == "sqlite" || scheme == "sqlite3" || scheme == "duckdb"
}

func isLocalEndpoint(v string) bool {
	h := strings.ToLower(urlHost(v))
	if h == "localhost" || h == "0.0.0.0" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	if i := strings.LastIndexByte(h, '.'); i > 0 && devOnlyTLDs[h[i+1:]] {
		return true // canvas.docker, shop.test: a name only this machine's resolver answers
	}
	return callfacts.LoopbackAddr(h)
}

// devOnlyTLDs are top-level names no public resolver answers and local
// development setups point at this machine: .test (reserved for testing,
// RFC 6761; Laravel Valet, puma-dev) and .docker (dinghy and dory route
// it to local containers; Canvas LMS's docker setup is canvas.docker).
// A request there reaches the developer's own server.
var devOnlyTLDs = map[string]bool{"test": true, "docker": true}

// wipesWhole: the command empties a store entirely rather than removing
// what it names.
func wipesWhole(c *Cmd) bool {
	for _, a := range c.Args {
		l := strings.ToLower(a)
		if strings.Contains(l, "*") && devName(l[strings.LastIndexByte(l, '/')+1:]) {
			continue // test-detections-*, scratch-*: the test or scratch indexes, not the store
		}
		if l == "flushall" || strings.Contains(l, "/_all") || strings.Contains(l, "*") || l == "--all" || l == "--all-namespaces" || l == "-a" && c.Name == "kubectl" {
			return true
		}
	}
	return false
}
