package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// varEnvTaskRule: a task runner's task named for applying changes
// (make tf-apply, just migrate-db, npm run db:sync) whose environment
// the line hands over in a variable it does not set (ENV=$TARGET_ENV,
// --stage=$STAGE). deploy-task reads a name that ships; these names
// only change an environment, the developer's own when it is named dev,
// and nobody can tell which one a variable holds: it asks. A literal
// environment is judged by the rules that read its name (prod-task).
func varEnvTaskRule() Rule {
	names := taskRunnerNames()
	return cmdRuleIf("external.systems:var-env-task", Ask, "A task runner's task named for applying changes (make tf-apply, just migrate, npm run db:sync) with its environment chosen by a variable the line does not set (ENV=$TARGET_ENV, STAGE=$STAGE): it may be production; dry runs and literal environments are judged by the other rules; the words are data (policy/remoteops.txt env-task, env-task-key)", names,
		func(e *Env, c *Cmd) bool { return strings.Contains(e.F.Command, "$") },
		func(e *Env, c *Cmd) string {
			if onlyHelp(c) || c.DryRun() || c.Has("-n", "--just-print", "--dry-run", "--dry") && c.Name != "npm" || listsTasks(c) {
				return ""
			}
			env := varEnvArg(c)
			if env == "" {
				return ""
			}
			verbs, stay := opsList("env-task"), opsList("local-task")
			for _, t := range runnerTasks(c) {
				if strings.ContainsAny(t, "=/") || anyWordIn(t, stay) {
					continue
				}
				if anyWordIn(t, verbs) {
					return c.Name + " " + t + " changes the environment " + env + " names, which the line does not set: " + c.String()
				}
			}
			return ""
		},
		[]string{"make tf-apply ENV=$TARGET_ENV", "just migrate-db stage=$STAGE", "make db-sync ENVIRONMENT=${DEPLOY_ENV}", "rake db:seed ENV=$RAILS_TARGET", "task apply TARGET=$T"},
		[]string{"make tf-apply ENV=dev", "make tf-plan ENV=$TARGET_ENV", "make -n tf-apply ENV=$TARGET_ENV", "make build ENV=$TARGET_ENV", "make tf-apply OUT=$PWD/out", "npm run test:migrate -- --env $E"})
}

// varEnvArg: the argument of c that chooses an environment by a variable
// the line does not set (ENV=$TARGET_ENV, --stage=$STAGE, --env $E), "".
func varEnvArg(c *Cmd) string {
	keys := opsList("env-task-key")
	for i, a := range c.Args {
		k, v, ok := strings.Cut(a, "=")
		if !ok && strings.HasPrefix(a, "-") && i+1 < len(c.Args) {
			k, v = a, c.Args[i+1]
		}
		k = strings.ToLower(strings.TrimLeft(k, "-"))
		if keys[k] && callfacts.UnknownValue(v) {
			return a
		}
	}
	return ""
}
