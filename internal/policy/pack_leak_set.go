package policy

// The rules of this file's siblings (pack_overwrite_homeshared.go, pack_forge_tags.go, pack_downgrade_persisted.go, pack_kill_holders.go, pack_unread_scripts.go, pack_secret_leaving.go) by pack: secrets
// leaving (piped into a publisher, a CI config written to print them,
// traffic captured and sent), key material
// destroyed (pack_credstore.go), forge settings and published tags, checks switched off for
// every later session, home and shared data replaced, processes ended
// for holding a directory, project scripts run at a real place unread.

func secretLeavingRules() []Rule {
	return append(ciSecretRules(), secretPipedToPublishRule(), huntAndSendRule(), remoteShellRuleByID("core.secrets:capture-leaves"))
}

func forkAndUnreadScriptRules() []Rule {
	return []Rule{forkOverwriteRule(), unreadScriptTargetRule(), scriptSendRule()}
}

// remoteShellRuleByID is one of remoteShellPipeRules by id (they share
// their programs' list; each goes to its own pack).
func remoteShellRuleByID(id string) Rule {
	for _, r := range remoteShellPipeRules() {
		if r.ID == id {
			return r
		}
	}
	panic("no rule " + id) // a build error the rule tests catch
}
