package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// A database client run inside a named container of this machine
// (docker exec marina-db psql -c "DELETE FROM reservations WHERE …",
// podman exec erp-mariadb mysql -e "UPDATE invoices SET … WHERE …")
// changes rows of whatever database that container serves. Unlike a
// Compose service (docker compose exec db …, the project's own stack) or
// a container or database named for dev or test, a container named only
// for its application may be the running application's data: the line
// does not show its environment, so a statement that deletes or updates
// rows there asks. Emptying or dropping is judged by core.sql:drop and
// sql-unknown-server; reads (SELECT, \dt) stay allowed.

// rowChangeStmt finds a statement that deletes or updates rows (SQL
// DELETE FROM / UPDATE … SET, a Mongo shell's delete/update/remove).
var rowChangeStmt = re(`(?i)\bdelete\s+from\s+[\w"` + "`" + `.]+|\bupdate\s+[\w"` + "`" + `.]+\s+set\b|\bdb\.[\w.]+\.(?:delete(?:one|many)|update(?:one|many)|remove|findoneanddelete)\s*\(`)

// rowChangeTrigger: the cheap words rowChangeStmt needs on the line.
func rowChangeTrigger(line string) bool {
	l := strings.ToLower(line)
	return strings.Contains(l, " exec") && (strings.Contains(l, "delete") || strings.Contains(l, "update") || strings.Contains(l, "remove"))
}

// appContainerOf is the container a docker/podman/nerdctl exec line runs
// c in, when c runs only there (no ssh, kubectl or other remote wrapper)
// and it is not a Compose service: "" otherwise.
func appContainerOf(e *Env, c *Cmd) string {
	if len(c.Wrappers) == 0 || strings.Contains(e.F.Command, "compose") {
		return ""
	}
	in := false
	for _, w := range c.Wrappers {
		switch f, _, _ := strings.Cut(w, " "); f {
		case "docker", "podman", "nerdctl":
			in = in || strings.HasSuffix(w, " exec")
		case "sudo", "doas", "env", "timeout", "nice", "nohup", "time", "bash", "sh", "zsh", "dash":
		default:
			return "" // ssh host docker exec …, kubectl exec: judged as on that host
		}
	}
	if !in {
		return ""
	}
	for i := range e.F.Commands {
		if n := callfacts.ExecContainer(&e.F.Commands[i]); n != "" {
			return n
		}
	}
	return ""
}

func containerRowChangeRule() Rule {
	return cmdRuleIf("external.systems:sql-container-rows", Ask,
		"a database client inside a named container of this machine that is neither a Compose service nor named for dev or test deletes or updates rows: the container may serve the running application's data, and the line does not show its environment",
		netSQLClients,
		func(e *Env, c *Cmd) bool { return rowChangeTrigger(e.F.Command) },
		func(e *Env, c *Cmd) string {
			if onlyHelp(c) || e.dryRun(c) {
				return ""
			}
			ctr := appContainerOf(e, c)
			if ctr == "" || devName(ctr) || testName(ctr) {
				return ""
			}
			text := sqlOf(c)
			if text == "" {
				text = lineWithPayloads(e) // psql <<'EOF' … EOF, mongosh --eval
			}
			stmt := rowChangeStmt.FindString(text)
			if stmt == "" || localDevDB(e) || localTestDB(e.F.Command) || testObjectsOnly(text) && !strings.Contains(strings.ToLower(stmt), "update") {
				return ""
			}
			return c.Name + " in container " + ctr + " changes rows (" + stmt + "…); the container is not a Compose service or named for dev or test, so it may hold the live application's data"
		},
		[]string{`docker exec -i marina-db psql -U postgres -d slips -c "DELETE FROM bookings WHERE id=4"`, `podman exec erp-mariadb mysql -e "UPDATE invoices SET paid=1 WHERE id=7"`, `docker exec crm-mongo mongosh crm --eval 'db.leads.deleteMany({stale:true})'`},
		[]string{`docker compose exec db psql -c "DELETE FROM bookings WHERE id=4"`, `docker exec shop-dev-db psql -c "DELETE FROM carts"`, `docker exec shop-db psql -d shop_test -c "UPDATE t SET a=1 WHERE id=2"`, `docker exec shop-db psql -c "SELECT * FROM orders WHERE updated_at > now()"`})
}
