package policy

import (
	"strings"
)

// remshRule: an Erlang/Elixir shell attached to a running node elsewhere
// (iex --remsh app@web.internal, erl -remsh) works inside the live
// application: anything typed there runs on it, so it asks; --rpc-eval
// NODE EXPR on such a node is judged by its expression (reads pass, as
// for bin/app rpc). A node on this machine (@127.0.0.1, @localhost, a
// short name without a host) is the developer's own.
func remshRule() Rule {
	return cmdRule("external.systems:remote-console", Ask, "A shell attached to a running Erlang/Elixir node on another host (iex --remsh app@web.internal, erl -remsh), or an expression that is not only reads evaluated there (--rpc-eval): it runs inside the live application; a node on this machine is left alone",
		[]string{"iex", "erl", "elixir"},
		func(e *Env, c *Cmd) string {
			for i, a := range c.Args {
				l := strings.ToLower(a)
				if i+1 >= len(c.Args) || !nodeElsewhere(c.Args[i+1]) {
					continue
				}
				switch l {
				case "--remsh", "-remsh":
					return c.Name + " attaches a shell to the running node " + c.Args[i+1] + ": " + c.String()
				case "--rpc-eval", "-rpc-eval":
					if i+2 < len(c.Args) && exprReads(c.Args[i+2]) {
						continue
					}
					return c.Name + " evaluates code on the running node " + c.Args[i+1] + ": " + c.String()
				}
			}
			return ""
		},
		[]string{`iex --name debug@127.0.0.1 --cookie "$COOKIE" --remsh app@app-web.internal`, "erl -name dbg@10.0.0.5 -remsh shop@db1.example.com", `elixir --name x@127.0.0.1 --rpc-eval shop@web1.internal "Shop.Release.rollback(Shop.Repo, 1)"`},
		[]string{"iex -S mix phx.server", "iex --sname dev --remsh app@localhost", "iex --remsh app", `elixir --rpc-eval shop@web1.internal "IO.inspect(Node.list())"`, "iex --remsh app@127.0.0.1"})
}

// nodeElsewhere: an Erlang node name whose host part is another machine
// (app@web.internal, shop@10.0.0.5); a bare name (app), a short host
// name (app@mybox, as -sname gives on this machine) or this machine's
// address (app@localhost, app@127.0.0.1) is not.
func nodeElsewhere(n string) bool {
	_, host, ok := strings.Cut(n, "@")
	if !ok || host == "" || strings.ContainsAny(host, "$`") {
		return false
	}
	switch h := strings.ToLower(host); {
	case isLocalEndpoint(h):
		return false
	case !strings.Contains(h, "."):
		return false // a short name (-sname): a node of this machine's own host name
	}
	return true
}
