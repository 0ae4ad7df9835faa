package policy

import "strings"

// Two readings of where a statement that deletes or changes rows lands,
// beside pack_sql_classdelete.go and dbTargetShared:
//
//   - a DELETE that picks a class of people's or the business's records
//     (DELETE FROM members WHERE status='free', FROM customers WHERE
//     tier='trial') on the server the environment picks — no host, or a
//     container of this machine not named for development or tests
//     (docker exec ghost-mysql mysql -e …) — may be the live
//     application's database: it asks, as the same statement emptying
//     the table does (sql-unknown-server). On a named other machine
//     sql-remote already denies it; a dev or test database stays
//     allowed.
//   - a short host name that names a replication role (tekion-replica,
//     orders-primary, pg-standby) is a server of a replicated database
//     set up by someone, not a compose service like db or postgres
//     (which stays the project's own).

// recordsClassDelete: text's class delete removes a records table's rows.
func recordsClassDelete(stmt string) bool {
	return recordsTable.MatchString(stmt)
}

// replicaRoleHost: a host named for its role in a replicated database.
func replicaRoleHost(h string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(h), func(r rune) bool { return r == '-' || r == '_' }) {
		switch w {
		case "replica", "primary", "master", "standby", "secondary", "follower", "leader", "reader", "writer":
			return true
		}
	}
	return false
}
