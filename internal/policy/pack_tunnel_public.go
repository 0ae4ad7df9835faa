package policy

import (
	"strconv"
	"strings"
)

// A public tunnel that stays or that opens a door into the machine. A
// foreground tunnel to a dev server's web port (ngrok http 3000) is a
// demo and asks (core.net:tunnel); the same tunnel left running in the
// background (tailscale funnel --bg, ngrok … --detach, cloudflared
// service install) outlives the session, and one to a shell, database or
// remote-desktop port, or to the file system, hands the machine to
// whoever finds the address: deny.

// doorPorts are the ports of logins, databases and remote desktops.
var doorPorts = map[int]bool{22: true, 23: true, 2222: true, 3389: true, 5900: true, 5432: true, 3306: true, 1433: true, 1521: true, 6379: true, 27017: true, 9200: true, 5984: true, 11211: true, 2375: true, 2376: true, 10250: true, 445: true, 139: true}

// tunnelPort: the local port a tunnel command names (8080, :22,
// localhost:5432, http://localhost:3000), 0 when it names none.
func tunnelPort(a string) int {
	a = strings.TrimPrefix(strings.TrimPrefix(a, "http://"), "https://")
	a = strings.TrimPrefix(a, "tcp://")
	if i := strings.LastIndex(a, ":"); i >= 0 {
		a = a[i+1:]
	}
	a, _, _ = strings.Cut(a, "/")
	n, err := strconv.Atoi(a)
	if err != nil || n <= 0 || n > 65535 {
		return 0
	}
	return n
}

// tunnelStays: the tunnel is left running past the session.
func tunnelStays(c *Cmd) bool {
	switch c.Name {
	case "tailscale":
		return c.Has("--bg") && !anyPos(c, "off", "reset", "status")
	case "cloudflared":
		return anyPos(c, "service") && anyPos(c, "install")
	case "ngrok":
		return c.Has("--detach") || anyPos(c, "service") && anyPos(c, "install", "start")
	}
	return false
}

func publicTunnelRules() []Rule {
	public := []string{"ngrok", "cloudflared", "lt", "localtunnel", "bore", "tailscale", "zrok", "pinggy"}
	return []Rule{
		cmdRule("core.net:tunnel-door", Deny, "A public tunnel left running in the background (tailscale funnel --bg, cloudflared service install) or opened to a login, database or remote-desktop port or to the file system (ngrok tcp 22, ngrok http file:///home/dev): the machine is reachable by anyone who finds the address", public,
			func(e *Env, c *Cmd) string {
				if onlyHelp(c) || anyPos(c, "version", "list", "ls", "status", "help", "login", "logout", "update", "config", "off", "reset") {
					return ""
				}
				if c.Name == "tailscale" && !anyPos(c, "funnel") || c.Name == "cloudflared" && !anyPos(c, "tunnel", "service") {
					return ""
				}
				if tunnelStays(c) {
					return c.Name + " leaves a public tunnel running after the session: " + c.String()
				}
				for _, a := range c.Args {
					if strings.HasPrefix(a, "file://") {
						return c.Name + " publishes the file system at " + a + ": " + c.String()
					}
					if p := tunnelPort(a); doorPorts[p] {
						return c.Name + " opens port " + strconv.Itoa(p) + ", a login or database, to the internet: " + c.String()
					}
				}
				return ""
			},
			[]string{"sudo tailscale funnel --bg 3000", "ngrok tcp 5432", "cloudflared tunnel --url tcp://localhost:22", "ngrok http file:///home/dev", "bore local 3389 --to bore.pub", "sudo cloudflared service install eyJhIjoi"},
			[]string{"tailscale funnel 3000", "ngrok http 3000", "tailscale funnel --bg off", "tailscale serve --bg 8123", "cloudflared tunnel list", "ngrok config add-authtoken x"}),
	}
}
