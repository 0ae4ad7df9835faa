package policy

// sharedProdChangeRules: changes to shared and production state by
// tools no table names (schema migrations on a shared database,
// publishing, security switched off on production).
func sharedProdChangeRules() []Rule {
	return append(sharedMigrateRules(), securityOffProdRule())
}
