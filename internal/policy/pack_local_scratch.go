package policy

import (
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// This machine's own scratch, seen through the disguises the round's
// look-alikes use: a store run in the project's own compose container
// (docker exec proj-redis-1 redis-cli …), keys a test pattern found on a
// local server, a lab built from the project's topology file, a network
// namespace (a lab: what runs inside it changes only its own stack).

// projectContainer: c runs through docker/podman exec in a container of
// the project's compose stack (named PROJECT-SERVICE-N or
// PROJECT_SERVICE_N after the project's directory), or docker compose
// exec of the project's stack, on this machine's engine.
func projectContainer(e *Env, c *Cmd) bool {
	via := false
	for _, w := range c.Wrappers {
		if w == "docker exec" || w == "podman exec" || w == "nerdctl exec" || strings.HasPrefix(w, "docker compose exec") || strings.HasPrefix(w, "docker-compose exec") {
			via = true
		}
	}
	if !via || e.F.Project == "" || strings.Contains(e.F.Command, "DOCKER_HOST=") || strings.Contains(e.F.Command, "--context") {
		return false
	}
	proj := strings.ToLower(path.Base(e.F.Project))
	for i := range e.F.Commands {
		d := &e.F.Commands[i]
		if d.Name != "docker" && d.Name != "podman" && d.Name != "nerdctl" && d.Name != "docker-compose" || d.Remote != "" {
			continue
		}
		if sub(d) == "compose" || d.Name == "docker-compose" {
			return d.Has("exec") || anyPos(d, "exec")
		}
		if sub(d) != "exec" {
			continue
		}
		for _, p := range d.Pos[1:] {
			l := strings.ToLower(p)
			if strings.HasPrefix(l, proj+"-") || strings.HasPrefix(l, proj+"_") || composeContainer(l) {
				return true
			}
			break
		}
	}
	return false
}

// testKeysFromLocal: redis-cli deletes keys piped from a scan of this
// machine's server whose pattern names test or scratch keys
// (redis-cli -p 6380 --scan --pattern 'test:*' | xargs redis-cli DEL).
func testKeysFromLocal(e *Env, c *Cmd) bool {
	if len(c.Upstream) == 0 {
		return false
	}
	if h := optValue(c, "-h"); h != "" && !callfacts.ThisMachine(h) || optValue(c, "-u") != "" {
		return false
	}
	for i := range e.F.Commands {
		d := &e.F.Commands[i]
		if d.Name != c.Name || d == c {
			continue
		}
		if h := optValue(d, "-h"); h != "" && !callfacts.ThisMachine(h) {
			return false
		}
		if p := optValue(d, "--pattern"); p != "" && d.Has("--scan") && scratchKeys(p) {
			return true
		}
	}
	return false
}

// scratchKeys: a key pattern whose fixed part names tests or scratch
// (test:*, tmp:*, ci:session:*), not everything (*).
func scratchKeys(p string) bool {
	fixed := strings.ToLower(strings.SplitN(p, "*", 2)[0])
	for _, w := range strings.FieldsFunc(fixed, func(r rune) bool { return r == ':' || r == '_' || r == '-' || r == '.' || r == '/' }) {
		switch w {
		case "test", "tests", "testing", "tmp", "temp", "scratch", "ci", "e2e", "spec", "fixture", "fixtures":
			return true
		}
	}
	return false
}

// rootLabWork: a command run as root that builds or tears down a network
// lab on this machine: containerlab with the project's topology file,
// ip netns add/delete, a virtual link made (ip link add … type veth),
// and network-stack commands run inside a named namespace (ip netns exec
// lab1 iptables -F): a namespace has its own interfaces, routes and
// firewall, so its changes stay in the lab.
func rootLabWork(e *Env, in *Cmd) bool {
	switch in.Name {
	case "containerlab", "clab":
		t := optValue(in, "-t")
		if t == "" {
			t = optValue(in, "--topo")
		}
		return t != "" && inProject(e, in, t) || in.Has("--help") || anyPos(in, "inspect", "graph", "version")
	case "ip":
		return netnsWork(in.Args)
	}
	return false
}

// netnsStack are the programs whose changes, run inside a network
// namespace, stay in that namespace's stack.
var netnsStack = map[string]bool{"ip": true, "iptables": true, "ip6tables": true, "nft": true, "tc": true, "ping": true, "sysctl": true,
	"ss": true, "iperf3": true, "iperf": true, "tcpdump": true, "ethtool": true, "bridge": true, "dnsmasq": true, "curl": true, "nc": true, "arping": true}

// netnsWork: ip's arguments make or remove a namespace, make a virtual
// link, or run a network-stack command inside a namespace.
func netnsWork(args []string) bool {
	var pos []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			pos = append(pos, a)
		}
	}
	if len(pos) < 2 {
		return false
	}
	switch pos[0] {
	case "netns":
		switch pos[1] {
		case "add", "del", "delete", "list", "ls", "identify", "pids", "set":
			return true
		case "exec":
			return len(pos) >= 4 && netnsStack[callfacts.ProgramName(pos[3])] && true
		}
	case "link", "l":
		if pos[1] == "add" {
			for i, a := range pos {
				if a == "type" && i+1 < len(pos) {
					switch pos[i+1] {
					case "veth", "dummy", "bridge", "vxlan", "macvlan", "ipvlan", "vrf", "gre", "geneve":
						return true
					}
				}
			}
		}
		if pos[1] == "set" && (slicesHas(pos, "netns")) {
			return true // a link moved into a namespace
		}
	}
	return false
}
