package policy

// unknownRemoteNamedRule: a program warden has no table for, told to
// change something (add, set, alter, apply, install, sync, enable,
// start, stop, void… as its subcommand or an --alter/--add-config/--set
// option) on a server its own options name (--db_uri=mongodb://10.45.0.5/x,
// --bootstrap-server kafka-a:9092, --url https://crm.acme.io): the
// change is made to a shared system others rely on. The same verbs with
// no server named, with this machine, a lab, a compose service (kafka,
// db, redis-1) or a dev/test/staging host named, and read words (list,
// describe, status) stay allowed (callfacts/remotenamed.go).
func unknownRemoteNamedRule() Rule {
	return Rule{
		ID: "external.systems:unknown-remote-change", Mode: Ask, Tools: shellTools,
		// only a line with a server option (callfacts remoteTargetOptions)
		On:   Trigger{Text: []string{"-H", "--host", "--server", "--bootstrap", "-url", "-uri", "_url", "_uri", "--db", "--dsn", "--base", "--broker", "--zookeeper", "--api", "--addr", "--endpoint", "--connection-string", "-h ", "--org", "--organization", "--workspace-id", "--account-id", "--tenant", "--project-id", "--team-id"}},
		Desc: "A change verb (add, set, alter, apply, install, sync, enable, start, stop, void…) of a program warden has no table for, sent to a server the command names by an option (--db_uri=mongodb://10.45.0.5/x add …, --bootstrap-server kafka-a:9092 --alter, --url https://crm.acme.io user set …): it changes a shared system; the same verbs on this machine, a lab, a compose service or a dev/test/staging host, reads and dry runs stay allowed",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				verb, host := c.RemoteNamedChange()
				if verb == "" || composeServiceName(host) || devName(host) || stagingName(host) || e.localOnly(i) || e.dryRun(c) {
					continue
				}
				return c.Name + " " + verb + " changes the server the line names (" + host + "); warden has no table for " + c.Name + ": " + c.String()
			}
			return ""
		},
		Catch: []string{
			"zorkdb-ctl --db_uri=mongodb://10.20.0.7/core add 4411 key1",
			"kafka-configs.sh --bootstrap-server kafka-a.corp:9092 --alter --entity-type topics --entity-name x --add-config retention.ms=1",
			"crmtool --url https://crm.acme.io user set 42 --role admin",
			"zorkctl --server api.acme.io:8443 feature enable checkout-v2",
		},
		Allow: []string{
			"zorkdb-ctl --db_uri=mongodb://localhost/core add 4411 key1",
			"kafka-configs.sh --bootstrap-server kafka:9092 --alter --entity-type topics --entity-name x --add-config retention.ms=1",
			"kafka-configs.sh --bootstrap-server kafka-a.corp:9092 --describe --entity-type topics",
			"crmtool --url https://crm-staging.acme.io user set 42 --role admin",
			"zorkctl --server api.acme.io:8443 feature list",
			"zorkctl feature enable checkout-v2",
			"zorkctl --server api.acme.io:8443 feature enable checkout-v2 --dry-run",
		},
	}
}
