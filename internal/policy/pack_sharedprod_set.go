package policy

// ops13Rules are the rules of the ops13 round: changes to shared and
// production state by tools no table names (schema migrations on a
// shared database, publishing, security switched off on production).
func ops13Rules() []Rule {
	return append(ops13MigrateRules(), ops13SecurityOffRule())
}
