package policy

import (
	"slices"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Reads and snapshots aimed at production are not changes (the lists are
// data, remoteops.txt): a CLI's bare topic that lists (read-sub: heroku
// config), a backup or snapshot taken (snapshot-noun with snapshot-make:
// heroku pg:backups:capture, aws rds create-db-snapshot), a program that
// only reports run in a production pod or host (exec-read: kubectl exec
// … -- nvidia-smi), and an SDK one-liner whose calls only read
// (sdk-read: Pinecone().describe_index('kb-prod')).

// prodReads: c, aimed at production, only reads or takes a snapshot.
func prodReads(e *Env, c *Cmd) bool {
	return opsList("read-sub")[c.Name+"/"+strings.ToLower(sub(c))] || len(c.Pos) > 1 && opsList("read-sub")[c.Name+"/"+strings.ToLower(c.Pos[0]+":"+c.Pos[1])] || snapshotTaken(c) || execReads(e, c) || sdkReads(c) || consoleReads(e, c) || ansibleFactsOnly(c) || composerRunReads(c)
}

// composerRunReads: gcloud composer environments run ENV … SUBCOMMAND:
// the Airflow command it runs only lists or shows (dags list-runs, tasks
// states-for-dag-run, dags state, version).
func composerRunReads(c *Cmd) bool {
	if c.Name != "gcloud" || len(c.Pos) < 5 || c.Pos[0] != "composer" || c.Pos[1] != "environments" || c.Pos[2] != "run" {
		return false
	}
	read, destroy := opsList("read-verb"), opsList("destroy-verb")
	found := false
	for i, p := range c.Pos[4:] {
		if i > 2 || optionBefore(c.Args, p) {
			continue
		}
		for _, w := range wordsOf(p) {
			switch {
			case destroy[w] || w == "trigger" || w == "unpause" || w == "pause" || w == "backfill" || w == "clear" || w == "set" || w == "import" || w == "run" || w == "test" || w == "create" || w == "update" || w == "reserialize":
				return false
			case read[w] || w == "state" || w == "states" || w == "report" || w == "details" || w == "next" || w == "version":
				found = true
			}
		}
	}
	return found
}

// snapshotTaken: one of c's first subcommand words names a snapshot or
// backup and one says it is made, and none destroys or restores.
func snapshotTaken(c *Cmd) bool {
	noun, make, destroy := opsList("snapshot-noun"), opsList("snapshot-make"), opsList("destroy-verb")
	var n, m bool
	for i, p := range c.Pos {
		if i == 3 {
			break
		}
		for _, w := range wordsOf(p) {
			switch {
			case destroy[w] || w == "restore" || w == "schedule" || w == "unschedule":
				return false
			case noun[w]:
				n = true
			case make[w]:
				m = true
			}
		}
	}
	return n && m
}

// execReads: c runs commands in a pod, container or host (kubectl exec,
// docker exec, heroku run, fly ssh console -C) and each one it runs only
// reports the machine's state.
func execReads(e *Env, c *Cmd) bool {
	read, not := opsList("exec-read"), opsList("exec-read-not")
	inner := 0
	for i := range e.F.Commands {
		in := &e.F.Commands[i]
		ran := false
		for _, w := range in.Wrappers {
			if w == c.Name || strings.HasPrefix(w, c.Name+" ") || w == "ssh" && c.Name != "ssh" && (sub(c) == "ssh" || slices.Contains(callfacts.RemoteShellTools(), c.Name)) { // fly ssh console -C: its payload runs "via ssh"
				ran = true
			}
		}
		if !ran {
			continue
		}
		if localRunner(e, in) {
			continue // bundle exec rails runner …, sudo -u app cat …: what it runs decides (podread.go)
		}
		if code := releaseCode(in); code != "" && releaseReads(code) {
			inner++ // bin/app rpc 'IO.inspect(App.Repo.aggregate(User, :count))' (pack_release_eval.go)
			continue
		}
		if !read[in.Name] || callfacts.IsShell(in.Name) {
			if in != c && in.Name != c.Name && innerReads(e, in) {
				inner++ // kubectl exec etcd-0 -- etcdctl endpoint health: a read by its own words
				continue
			}
			return false
		}
		for _, f := range in.Flags {
			if not[in.Name+":"+f] {
				return false
			}
		}
		inner++
	}
	return inner > 0
}

// innerReads: a command run inside another (kubectl exec … -- CMD) reads
// by its own words (etcdctl endpoint health, redis-cli info, consul
// members list); not a shell, an interpreter's code, or a command that in
// turn runs others.
func innerReads(e *Env, in *Cmd) bool {
	if r, ok := innerCodeReads(e, in); ok {
		return r // an interpreter's one-liner, a script's subcommand, a client's statement (podread.go)
	}
	if in.Payload != "" || callfacts.IsShell(in.Name) || callfacts.IsInterpreter(in.Name) || len(in.Pos) == 0 || in.Name == "ssh" || slices.Contains(callfacts.RemoteShellTools(), in.Name) {
		return false
	}
	for _, w := range in.Wrappers {
		if w == in.Name || strings.HasPrefix(w, in.Name+" ") {
			return false // kubectl exec a -- kubectl exec b -- …: a runner run by itself
		}
	}
	for i := range e.F.Commands {
		for _, w := range e.F.Commands[i].Wrappers {
			if w == in.Name || strings.HasPrefix(w, in.Name+" ") {
				return false
			}
		}
	}
	if adminReport(in.Name, in.Args) != "" {
		return true // ansible … -m command -a 'postconf mail_version': an administrator's report (pack_admin_reports.go)
	}
	return prodAction(e, in) == "read"
}

// sdkCallName finds the methods an interpreter's code calls (.name( ).
var sdkCallName = re(`\.([A-Za-z_]\w*)\s*\(`)

// sdkReads: c is an interpreter one-liner whose every method call reads
// (describe_index, list_collections, fetch) or is neutral (connect,
// close), with at least one read among them.
func sdkReads(c *Cmd) bool {
	if c.Payload == "" || !callfacts.IsInterpreter(c.Name) {
		return false
	}
	read, neutral, sql := opsList("sdk-read"), opsList("sdk-neutral"), opsList("sdk-sql")
	reads := 0
	for _, m := range sdkCallName.FindAllStringSubmatchIndex(c.Payload, 32) {
		name := c.Payload[m[2]:m[3]]
		if name[0] >= 'A' && name[0] <= 'Z' {
			continue // a constructor: Pinecone(), Index('x')
		}
		first := camelFirst(name)
		if sql[strings.ToLower(name)] {
			if q, ok := quotedAt(c.Payload[m[1]:]); ok {
				if !sqlReadOnly(q) {
					return false // c.execute('DELETE FROM …')
				}
				reads++ // c.execute('SELECT MAX(LoadDate) FROM etl.LoadLog')
				continue
			}
		}
		switch {
		case read[first]:
			reads++
		case neutral[first] || neutral[name]:
		default:
			return false
		}
	}
	switch connQueryReads(c.Payload) {
	case -1:
		return false
	case 1:
		reads++
	}
	return reads > 0
}

// quotedAt is the string literal s starts with ('…' or "…", after
// spaces): the SQL a call is given.
func quotedAt(s string) (string, bool) {
	s = strings.TrimLeft(s, " \t")
	if s == "" || s[0] != '\'' && s[0] != '"' {
		return "", false
	}
	end := strings.IndexByte(s[1:], s[0])
	if end < 0 {
		return "", false
	}
	return s[1 : 1+end], true
}

// camelFirst is the first word of a snake_case or camelCase name, lower
// case (describe_index, describeIndex: describe).
func camelFirst(name string) string {
	name = strings.TrimLeft(name, "_")
	for i := 1; i < len(name); i++ {
		if name[i] == '_' || name[i] >= 'A' && name[i] <= 'Z' {
			return strings.ToLower(name[:i])
		}
	}
	return strings.ToLower(name)
}
