package policy

import "strings"

// Code evaluated in a production release's console: an Elixir release
// script (bin/APP eval CODE, bin/APP rpc CODE), often reached through a
// host's remote shell (fly ssh console -C "/app/bin/acme eval '…'",
// kubectl exec … -- bin/app rpc '…'), runs CODE in the live app against
// its database. Code that deletes records, drops or truncates tables or
// rolls migrations back, aimed at production (the app, host or
// environment named prod), is denied; reading code (a count, an
// aggregate, inspect) is not judged here.

// releaseCode: the code c evaluates as a release script's eval or rpc,
// "" when c is none.
func releaseCode(c *Cmd) string {
	if len(c.Pos) < 2 || c.Pos[0] != "eval" && c.Pos[0] != "rpc" || !strings.Contains(c.Raw, "bin/") {
		return ""
	}
	return c.Pos[1]
}

// releaseDestroys: Elixir or Erlang code that deletes records, drops or
// truncates tables, or rolls migrations back.
var releaseDestroys = re(`\.(delete_all|delete!?|update_all)\s*\(|Migrator\.(run|down)\([^)]*:down|Migrator\.rollback|(Repo|SQL)\.query!?\([^)]*(?i:delete|drop|truncate|update)\b|:mnesia\.(clear_table|delete_table|delete_schema)|File\.rm_rf|\.drop_table|\.truncate`)

// releaseReadCalls are the calls of Elixir code that only look: Repo
// reads, printing, the app's configuration and state.
var releaseReadCalls = map[string]bool{"inspect": true, "puts": true, "aggregate": true, "all": true, "get": true, "get!": true, "get_by": true, "get_by!": true,
	"one": true, "one!": true, "exists?": true, "preload": true, "count": true, "spec": true, "version": true, "get_env": true, "fetch_env!": true, "fetch_env": true,
	"info": true, "stats": true, "which_applications": true, "loaded_applications": true, "list": true, "state": true, "memory": true, "system_info": true, "length": true, "map": true, "take": true}

// releaseCall finds the calls of Elixir code (.name( and :mod.name().
var releaseCall = re(`\.([a-z_][A-Za-z0-9_]*[?!]?)\s*\(`)

// releaseReads: every call the code makes only looks, and it makes one.
func releaseReads(code string) bool {
	calls := releaseCall.FindAllStringSubmatch(code, 32)
	for _, m := range calls {
		if !releaseReadCalls[m[1]] {
			return false
		}
	}
	return len(calls) > 0
}

func releaseEvalRules() []Rule {
	return []Rule{
		{ID: "external.systems:release-eval-prod", Mode: Deny, Tools: shellTools, On: On(0).OrText("eval", "rpc"),
			Desc: "Code evaluated in a production release's console (bin/APP eval|rpc CODE, locally or through fly ssh console -C, ssh, kubectl exec) that deletes records, drops or truncates tables or rolls migrations back (Repo.delete_all, Ecto.Migrator.run(…, :down, all: true)): the live app's data goes",
			Match: func(e *Env) string {
				for i := range e.F.Commands {
					c := &e.F.Commands[i]
					code := releaseCode(c)
					if code == "" || !releaseDestroys.MatchString(code) {
						continue
					}
					if appProdEnv.MatchString(e.F.Command) || prodWord.MatchString(strings.ReplaceAll(e.F.Command, code, "")) {
						return c.Name + " " + c.Pos[0] + " runs code that destroys data in the production app: " + c.String()
					}
				}
				return ""
			},
			Catch: []string{`fly ssh console -a shop-prod -C "/app/bin/shop eval 'Shop.Repo.delete_all(Shop.Orders.Order)'"`, `kubectl --context prod exec deploy/api -- bin/api rpc 'Ecto.Migrator.with_repo(Api.Repo, &Ecto.Migrator.run(&1, :down, all: true))'`, `ssh deploy@app-prod-1 "/opt/shop/bin/shop eval 'Shop.Repo.query!(\"TRUNCATE orders\")'"`},
			Allow: []string{`fly ssh console -a shop-prod -C "/app/bin/shop rpc 'IO.inspect(Shop.Repo.get(Shop.User, 7))'"`, `fly ssh console -a shop-prod -C "/app/bin/shop eval 'IO.inspect(Shop.Repo.aggregate(Shop.Orders.Order, :count))'"`, `fly ssh console -a shop-staging -C "/app/bin/shop eval 'Shop.Repo.delete_all(Shop.Orders.Order)'"`, `_build/dev/rel/shop/bin/shop eval 'Shop.Release.migrate()'`, `fly ssh console -a shop-prod -C "/app/bin/shop remote"`}},
	}
}
