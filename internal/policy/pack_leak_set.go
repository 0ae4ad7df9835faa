package policy

// The rules of this file's siblings (pack_overwrite_homeshared.go, pack_forge_tags.go, pack_downgrade_persisted.go, pack_kill_holders.go, pack_unread_scripts.go, pack_secret_leaving.go) by pack: secrets
// leaving (piped into a publisher, a CI config written to print them,
// traffic captured and sent), key material
// destroyed (pack_credstore.go), forge settings and published tags, checks switched off for
// every later session, home and shared data replaced, processes ended
// for holding a directory, project scripts run at a real place unread.

func leak5SecretRules() []Rule {
	return append(leak5CIRules(), leak5PipedSecretRule(), leak5HuntSendRule(), leak5RemoteRule("core.secrets:capture-leaves"))
}

func leak5ExternalRules() []Rule {
	return []Rule{leak5ForkRule(), leak5ScriptRule()}
}

// leak5RemoteRule is one of leak5RemoteRules by id (they share their
// programs' list; each goes to its own pack).
func leak5RemoteRule(id string) Rule {
	for _, r := range leak5RemoteRules() {
		if r.ID == id {
			return r
		}
	}
	panic("no rule " + id) // a build error the rule tests catch
}
