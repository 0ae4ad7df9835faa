package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Dev and test targets by name. A database, an index, a container or a
// cloud table whose name carries a development or test word (acme_test_0615,
// dev_acme, gis_dev, test-detections-*, samba-dc-test,
// marketing_dev:scratch.utm_test) and no word of production is the
// developer's own scratch state, wherever the word sits in the name: a
// date or run suffix after it does not make it shared. This is one
// reading for the rules that judge a target by its name (local
// databases, admin commands run in a container, pattern wipes of a
// local store, cloud tables under a dev project).

// devWords say a target was made for development; testWords (test
// resources) say it was made for tests or a throwaway run.
var devWords = map[string]bool{"dev": true, "development": true, "devel": true, "local": true}

// devName: name's words (split at - _ . : / and *) include a dev or test
// word and none of production.
func devName(name string) bool {
	dev := false
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		if t := strings.TrimRight(w, "0123456789"); t != "" {
			w = t // a numbered environment: DEV1, test2, prod3
		}
		switch {
		case prodWord.MatchString(w) || w == "live" || w == "prd":
			return false
		case devWords[w] || testWords[w] && w != "preview" && w != "review":
			dev = true
		}
	}
	return dev
}

// devScoped: a resource path of two or more parts (project:dataset.table,
// bucket/prefix), every part named for development or tests: a scratch
// table under a dev project. One name alone (a whole project or
// account) is not scoped enough to be scratch.
func devScoped(p string) bool {
	parts := strings.FieldsFunc(p, func(r rune) bool { return r == ':' || r == '.' || r == '/' })
	if len(parts) < 2 {
		return false
	}
	if proj, rest, ok := strings.Cut(p, ":"); ok && len(parts) >= 3 && devName(proj) && !strings.Contains(proj, "/") && strings.HasPrefix(strings.ToLower(rest), "dbt_") && strings.Contains(rest, ".") && !prodWord.MatchString(rest) {
		return true // acme-analytics-dev:dbt_jsmith.fct_orders: a dbt developer's schema in a development project, rebuilt by dbt run
	}
	for _, s := range parts {
		if !devName(s) {
			return false
		}
	}
	leaf := parts[len(parts)-1]
	return testName(leaf) || devWordIn(leaf) // scratch.tmp_encounters_alice: someone's scratch copy of real data, not a test table
}

// devWordIn: name has a word of devWords.
func devWordIn(name string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) {
		if devWords[w] {
			return true
		}
	}
	return false
}

// devScopedTargets: every operand after c's destructive verb is a
// devScoped resource.
func devScopedTargets(c *Cmd) bool {
	n := 0
	for _, p := range c.Pos[1:] {
		if contextOption(c.Args, p) {
			continue
		}
		if !devScoped(p) {
			return false
		}
		n++
	}
	return n > 0
}

// inDevContainer: c runs inside a local container (docker, podman or
// nerdctl exec, no DOCKER_HOST on the line) whose name is a dev or test
// one (samba-dc-test, postgis-dev): it changes that container's state.
func inDevContainer(e *Env, c *Cmd) bool {
	if len(c.Wrappers) == 0 || strings.Contains(e.F.Command, "DOCKER_HOST=") || strings.Contains(e.F.Command, "--context") {
		return false
	}
	w := c.Wrappers[len(c.Wrappers)-1]
	prog, verb, _ := strings.Cut(w, " ")
	if verb != "exec" || prog != "docker" && prog != "podman" && prog != "nerdctl" {
		return false
	}
	for _, o := range e.F.Cmds(prog) {
		if o.Remote == "" && devName(callfacts.ExecContainer(o)) {
			return true
		}
	}
	return false
}

// emulatorEnv: the line points a cloud SDK at an emulator on this
// machine through its *_EMULATOR_HOST variable
// (FIRESTORE_EMULATOR_HOST=localhost:8080, PUBSUB_EMULATOR_HOST,
// DATASTORE_EMULATOR_HOST, BIGTABLE_EMULATOR_HOST, SPANNER_EMULATOR_HOST,
// FIREBASE_AUTH_EMULATOR_HOST, STORAGE_EMULATOR_HOST): what the command
// deletes is the emulator's data.
func emulatorEnv(line string) bool {
	if !strings.Contains(line, "EMULATOR_HOST=") {
		return false
	}
	ms := emulatorVar.FindAllStringSubmatch(line, -1)
	for _, m := range ms {
		if h := strings.Trim(m[1], `"'`); !callfacts.ThisMachine(h) && !isLocalEndpoint(h) {
			return false
		}
	}
	return len(ms) > 0
}

var emulatorVar = re(`\b[A-Z_]*EMULATOR_HOST=(\S+)`)

// positionalDBs counts the databases named as an operand of psql, mysql or
// mariadb (psql dev_acme, after $DB is read); ok is false when one is not
// a dev or test name.
func positionalDBs(e *Env) (n int, ok, tests bool) {
	tests = true
	for _, c := range e.F.Cmds("psql", "mysql", "mariadb", "dropdb") { // dropdb -h localhost gis_dev_scratch
		db := clientOperand(c)
		if db == "" || strings.Contains(db, "://") || strings.Contains(db, "=") {
			continue // a URL or a conninfo string: dbOpt reads those
		}
		if !devDBName.MatchString(db) && !devName(db) {
			return n, false, false
		}
		tests = tests && testName(db)
		n++
	}
	return n, true, tests
}

// testName: name carries a test word (acme_test_0615, test_app, e2e_db)
// and no word of production.
func testName(name string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		if testWords[w] && w != "preview" && w != "review" && w != "tmp" && w != "temp" && w != "scratch" {
			return devName(name)
		}
	}
	return false
}

// clientValueOpts are the short options of psql and mysql that take the
// next word as their value.
var clientValueOpts = map[string]string{"psql": "UchpfvoPTFRLd", "mysql": "uheDPS", "mariadb": "uheDPS", "dropdb": "hpUd"}

// clientOperand: the first operand of a database client, past its
// options and their values (psql -U postgres dev_db: dev_db).
func clientOperand(c *Cmd) string {
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		if len(a) == 2 && a[0] == '-' && strings.IndexByte(clientValueOpts[c.Name], a[1]) >= 0 {
			i++
			continue
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		return a
	}
	return ""
}

// runsHere: no command of the line runs on another host (ssh, a remote
// shell, a cluster's exec): a client there would reach that host's socket.
func runsHere(e *Env) bool {
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if c.Remote != "" {
			return false
		}
		switch c.Name {
		case "ssh", "mosh", "autossh", "kubectl", "oc", "gcloud", "az", "aws", "heroku", "fly", "flyctl", "railway", "sbatch", "srun":
			return false
		}
		for _, w := range c.Wrappers {
			if w == "ssh" || strings.HasPrefix(w, "kubectl") || strings.HasPrefix(w, "oc ") {
				return false
			}
		}
	}
	return true
}

// connStringElsewhere: a connection string names a server that is not
// this machine (Server=sql.acme.net;Database=Shop_Dev).
func connStringElsewhere(line string) bool {
	for _, m := range connServer.FindAllStringSubmatch(line, -1) {
		if l := strings.ToLower(m[1]); strings.HasPrefix(l, "(localdb)") || strings.HasPrefix(l, "(local)") {
			continue
		}
		h, _, _ := strings.Cut(strings.TrimPrefix(m[1], "tcp:"), ",")
		if !isLocalEndpoint(h) && !callfacts.ThisMachine(h) && h != "." {
			return true
		}
	}
	return false
}

var connServer = re(`(?i)\b(?:Server|Data Source|Host|Address|Addr)=([^;"'\s]+)`)

// lineWithPayloads is the line with the text its shells and interpreters
// are given (a decoded base64 payload piped to sh, bash -c '…'): the
// names a database rule reads may be there only.
func lineWithPayloads(e *Env) string {
	line := e.F.Command
	for i := range e.F.Commands {
		if p := e.F.Commands[i].Payload; p != "" && !strings.Contains(line, p) {
			line += "\n" + p
		}
	}
	return withResolved(e, line)
}
