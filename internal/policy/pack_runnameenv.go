package policy

import "strings"

// runNameEnvRule: a task runner target named for destroying a data
// store (db-reset, drop-tables, purge-cache) aimed by an environment
// variable (ENV=uat, STAGE=staging, ENVIRONMENT=qa) at an environment
// that is not this machine's or a test's, when its definition is not on
// disk to read: a shared environment's data, at least ask (production
// is core.local:run-name-destroy's deny).
func runNameEnvRule() Rule {
	return localRule("core.local:run-name-destroy-env", Ask, "A task runner target named for destroying (drop, destroy, nuke, wipe, purge, teardown, reset) aimed by ENV=/STAGE=/ENVIRONMENT= at a shared environment (uat, staging, qa, preprod), when its definition is not on disk to read", taskRunnerNames(),
		func(e *Env, c *Cmd) string {
			t, vars := runTarget(e, c)
			if t == "" || !nameHas(t, destroyWords) || definitionRead(e, c) {
				return ""
			}
			for _, v := range vars {
				k, val, _ := strings.Cut(v, "=")
				if !envVarNames[strings.ToUpper(strings.TrimRight(k, ":+?"))] {
					continue
				}
				val = strings.ToLower(strings.Trim(val, `"'`))
				if val == "" || strings.ContainsAny(val, "$`/") || nameHas(val, localEnvWords) {
					continue
				}
				return c.Name + " runs " + t + " against the " + val + " environment (" + v + "), and its definition is not on disk to read"
			}
			return ""
		},
		[]string{"make db-reset ENV=uat", "task db:drop STAGE=staging", "just wipe-data ENVIRONMENT=qa", "make purge-cache ENV=preprod"},
		[]string{"make db-reset ENV=dev", "make db-reset ENV=test", "make db-reset", "make build ENV=uat", "task db:drop STAGE=local"})
}

var (
	// envVarNames: the variables that name where a task acts
	envVarNames = wordSet("ENV", "STAGE", "ENVIRONMENT", "DEPLOY_ENV", "TARGET_ENV", "APP_ENV", "RAILS_ENV", "NODE_ENV", "TIER")
	// localEnvWords: environments on this machine or for tests only
	localEnvWords = wordSet("dev", "development", "local", "localhost", "test", "testing", "tests", "ci", "e2e", "docker", "sandbox", "scratch", "tmp", "mock", "demo", "example")
)
