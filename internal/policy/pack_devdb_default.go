package policy

import "strings"

// Frameworks whose database tasks run against the development database
// unless told otherwise: mix reads MIX_ENV (dev when unset), knex and
// sequelize read NODE_ENV or --env (development when unset). A task
// that drops or rebuilds a database on a line naming no environment,
// connection URL or server is the developer's own database, as bin/rails
// db:reset already is (selfGuarded). A line that names any environment
// (MIX_ENV=staging, --env qa) or a connection is judged as before: it
// may be a shared one.

// devDefaultTasks: program → the variable that picks its environment.
var devDefaultTasks = map[string]string{"mix": "MIX_ENV", "knex": "NODE_ENV", "sequelize": "NODE_ENV", "sequelize-cli": "NODE_ENV"}

// devByDefault: name's task runs in its development environment on line.
func devByDefault(name, line string) bool {
	v, ok := devDefaultTasks[name]
	if !ok || strings.Contains(line, v) || strings.Contains(line, "_ENV=") || strings.Contains(line, "--env") || strings.Contains(line, "://") {
		return false
	}
	for _, w := range []string{"DATABASE_URL", "_HOST=", "--url", "--connection", "--host", "--config", " -e ", "staging", "shared"} {
		if strings.Contains(line, w) {
			return false
		}
	}
	return true
}
