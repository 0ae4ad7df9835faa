package policy

import "strings"

// artisanEnv: the environment an artisan command is told to run in, by
// its --env option or an APP_ENV= on the line.
var artisanEnv = re(`(?i)(?:--env[= ]|\bAPP_ENV=)['"]?([a-z]+)`)

// artisanLocalEnv: the artisan command c runs in a local, development or
// test environment (php artisan db:wipe --env=testing --force,
// APP_ENV=local php artisan migrate:fresh --force): its --force passes a
// guard that only production keeps, so it drops the developer's own
// database. Every environment the line names must be such a one.
func artisanLocalEnv(e *Env, c *Cmd) bool {
	ms := artisanEnv.FindAllStringSubmatch(c.String()+" "+e.F.Command, -1)
	if len(ms) == 0 || prodMarker.MatchString(e.F.Command) {
		return false
	}
	for _, m := range ms {
		switch strings.ToLower(m[1]) {
		case "local", "dev", "development", "test", "testing":
		default:
			return false
		}
	}
	return true
}
