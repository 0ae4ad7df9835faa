package policy

import (
	"slices"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// a client that names no server talks to this machine. A drop
// or flush there on a test-named object (DROP TABLE IF EXISTS test_bids),
// or on a Redis started on a side port (redis-cli -p 6380 FLUSHALL), is
// the developer's own scratch state. Local data that is not test-named
// asks rather than being denied when the client has no environment
// variable that sends it elsewhere (clickhouse-client, redis-cli); psql and mysql read PGHOST/MYSQL_HOST, so they keep their
// deny. A named remote or production server stays denied.

// sqlDropTarget: the object a drop, truncate or unqualified delete names,
// or the collection a mongo shell drops.
var sqlDropTarget = re("(?i)\\b(?:drop\\s+(?:database|table|schema|keyspace|view)|truncate(?:\\s+table)?|delete\\s+from)\\s+(?:if\\s+exists\\s+)?([\\w\"`.]+)|\\bdb\\.(\\w+)\\.drop\\s*\\(")

// noServerNamed: the line names no server for c (no host option, URL,
// PGHOST-like variable) and c runs on this machine. A port alone
// (clickhouse-client --port 9000, psql -p 5433) is a server on this
// machine unless a tunnel the line opens forwards it elsewhere.
func noServerNamed(e *Env, c *Cmd) bool {
	return hereWrappers(c) && !namesDBHostOnly.MatchString(e.F.Command) && !strings.Contains(e.F.Command, "://") && !callfacts.HasArg(c.Args, "--config-file", "-C", "--config") &&
		(!namesDBHost.MatchString(e.F.Command) || lineTunnel(e, c) == "")
}

// namesDBHostOnly: namesDBHost without the port options.
var namesDBHostOnly = re(`(?:^|\s)(?:-h|--host|-S|--server)[\s=]|\b(?:PGHOST|PGSERVICE|DATABASE_URL|DB_HOST|host|hostaddr)=|\w+://`)

// testObjectsOnly: every object the SQL drops, truncates or empties is
// test-named (test_bids, orders_test, analytics.test_x) or named as a
// scratch copy (events_tmp, tmp_load), and there is one.
func testObjectsOnly(text string) bool {
	drops := len(sqlDrop.FindAllStringIndex(text, -1))
	ts := sqlDropTarget.FindAllStringSubmatch(text, -1)
	if len(ts) == 0 || len(ts) < drops {
		return false
	}
	for _, t := range ts {
		name := strings.Trim(t[1]+t[2], "\"`;") // a table, or a collection (db.test_sessions.drop())
		if prodName.MatchString(name) {
			return false
		}
		parts := strings.Split(name, ".")
		if !testDBRef.MatchString(parts[len(parts)-1]) && !(len(parts) > 1 && testDBRef.MatchString(parts[0])) && !scratchTable.MatchString(parts[len(parts)-1]) {
			return false
		}
	}
	return true
}

// scratchTable: a table named as a throwaway copy (events_tmp,
// orders_scratch, tmp_load, temp_import): made to be dropped.
var scratchTable = re(`(?i)[_-](tmp|temp|scratch)\d*$|^(tmp|temp|scratch)[_-]`)

// localTestDrop: c drops only test-named objects on this machine's server.
func localTestDrop(e *Env, c *Cmd, text string) bool {
	return noServerNamed(e, c) && testObjectsOnly(text)
}

// localDefaultClients connect to this machine when no server is named
// and read no environment variable naming another.
var localDefaultClients = map[string]bool{"clickhouse-client": true, "clickhouse": true}

// localDefaultDrop: c is such a client, naming no server, and the objects
// it drops are not named for production: core.sql:drop leaves it to the
// ask of external.systems:sql-unknown-server.
func localDefaultDrop(e *Env, c *Cmd, text string) bool {
	return localDefaultClients[c.Name] && noServerNamed(e, c) && !prodName.MatchString(text) && !prodTable.MatchString(text)
}

// redisDefaultLocal: redis-cli names no host, URL or socket elsewhere and
// runs on this machine.
func redisDefaultLocal(c *Cmd) bool {
	// a socket (-s /var/opt/gitlab/redis/redis.socket) names a service's
	// own server: an appliance's data, not a dev instance
	return optValue(c, "-h") == "" && optValue(c, "-u") == "" && optValue(c, "-s") == "" && !strings.Contains(lowerArgs(c), "://") && hereWrappers(c)
}

// redisSidePort: on this machine, a server on a port other than the
// default (a test or throwaway instance: redis-server --port 6380).
func redisSidePort(c *Cmd) bool {
	p := optValue(c, "-p")
	return redisDefaultLocal(c) && p != "" && p != "6379" && strings.Trim(p, "0123456789") == ""
}

func redisFlushLocalRule() Rule {
	return cmdRule("external.systems:redis-flush-local", Ask, "redis-cli FLUSHALL/FLUSHDB on this machine's default server (no host named): local data, perhaps not scratch", []string{"redis-cli", "valkey-cli", "keydb-cli"},
		func(e *Env, c *Cmd) string {
			if projectContainer(e, c) || localScratchRedis(c) || redisSidePort(c) || !redisDefaultLocal(c) {
				return ""
			}
			if a := lowerArgs(c); strings.Contains(a, "flushall") || strings.Contains(a, "flushdb") {
				return c.Name + " empties this machine's default Redis: " + c.String()
			}
			return ""
		},
		[]string{"redis-cli FLUSHALL", "redis-cli flushdb", "bash -c 'redis-cli flushall'", "sudo redis-cli -p 6379 FLUSHALL"},
		[]string{"redis-cli -p 6380 FLUSHALL", "redis-cli -n 15 flushdb", "redis-cli -h prod FLUSHALL", "redis-cli ping"})
}

// stopsWhatLineStarted: command i stops (stop, down, shutdown, halt) what
// an earlier command of the same line started with the same program and
// the same words before the verb, on this machine (ray start --head …
// && python smoke.py && ray stop; supabase start && … && supabase
// stop): it ends the line's own server, not a shared one.
func stopsWhatLineStarted(e *Env, i int) bool {
	c := &e.F.Commands[i]
	k := slices.IndexFunc(c.Pos, func(p string) bool { return p == "stop" || p == "down" || p == "shutdown" || p == "halt" })
	if k < 0 || !hereWrappers(c) {
		return false
	}
	for j := 0; j < i; j++ {
		d := &e.F.Commands[j]
		if d.Name != c.Name || len(d.Pos) <= k || !slices.Equal(d.Pos[:k], c.Pos[:k]) || !hereWrappers(d) {
			continue
		}
		if w := d.Pos[k]; w == "start" || w == "up" || w == "start-dev" || w == "run" {
			return true
		}
	}
	return false
}

// hereWrappers: every wrapper of c runs it on this machine: sudo, env,
// timeout (localWrappers) or a local shell (bash -c '…').
func hereWrappers(c *Cmd) bool {
	for _, w := range c.Wrappers {
		if name, _, _ := strings.Cut(w, " "); !sameHostWrappers[name] && !callfacts.IsShell(name) {
			return false
		}
	}
	return true
}
