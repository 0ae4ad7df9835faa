package policy

import (
	"slices"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/callfacts"
)

// cmdRule is a rule over commands with given names: fires when match
// returns a reason for one of them. The engine runs it only when one of
// names is in the call (Rule.Cmds); the commands it skips (reports, help,
// an external tool aimed at this machine) are read once per command per
// call, not once per rule: an everyday git line meets some thirty rules
// about git.
func cmdRule(id string, mode Mode, desc string, names []string, match func(e *Env, c *Cmd) string, catch, allow []string) Rule {
	return cmdRuleIf(id, mode, desc, names, nil, match, catch, allow)
}

// cmdRuleIf is cmdRule with a precondition: pre, when set, is a cheap,
// pure test that must hold for match to fire on c, read before the
// shared skips (quiet, externalSkip). A dozen rules about the programs of
// remote.txt name npm, git and aws; on npm run build none has an action,
// and with pre first none pays for externalSkip's reading of the line.
func cmdRuleIf(id string, mode Mode, desc string, names []string, pre func(e *Env, c *Cmd) bool, match func(e *Env, c *Cmd) string, catch, allow []string) Rule {
	named := nameSet(names)
	return Rule{ID: id, Mode: mode, Desc: desc, Tools: shellTools, Cmds: names, Catch: catch, Allow: allow,
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				if !e.named(i, names, named) || pre != nil && !pre(e, c) {
					continue
				}
				// match is read before the shared skips, which are asked
				// only of a hit: nearly every command meets its rules
				// without one, and the skips (quiet, and externalSkip's
				// reading of every endpoint) cost more than most matches.
				// A command the skips leave alone ends as it did when
				// match was not read there: whatever match set on the Env
				// is put back and a panic of its is dropped.
				key, unsure, err := e.OnceKey, e.Unsure, e.Err
				r, p, panicked := guardedMatch(e, c, match)
				if r == "" && !panicked && e.OnceKey == key && e.Unsure == unsure && err == nil && e.Err == nil {
					continue // no hit, nothing set: the usual end
				}
				if e.quiet(i) || e.cur != nil && e.cur.remote && e.externalSkip(i) {
					// it only says what it would do, prints what is
					// there or how to use it, or it is aimed at this
					// machine or a lab host (externalSkip)
					e.OnceKey, e.Unsure, e.Err = key, unsure, err
					continue
				}
				if panicked {
					panic(p) // the engine reports it (Engine.match)
				}
				if r != "" {
					return r
				}
			}
			return ""
		}}
}

// guardedMatch is match(e, c) with a panic caught and returned, so that
// cmdRuleIf can drop the panic of a command its skips leave alone.
func guardedMatch(e *Env, c *Cmd, match func(e *Env, c *Cmd) string) (r string, p any, panicked bool) {
	defer func() {
		if x := recover(); x != nil {
			p, panicked = x, true
		}
	}()
	return match(e, c), nil, false
}

// named reports whether the i-th command's program is one of names,
// the Cmds of the rule running (named is membership in them): the engine
// looked each command's program up once for the call (Env.cmdSets), so
// this is a bit test instead of a lookup per rule per command. The
// answer is read from cmdSets only when the running rule's Cmds are names
// itself (the same slice), else from named.
func (e *Env) named(i int, names []string, named func(string) bool) bool {
	if r := e.cur; e.cmdSetsKnown && r != nil && len(r.Cmds) == len(names) && len(names) > 0 && &r.Cmds[0] == &names[0] {
		s := e.cmdSets[i]
		return s != nil && s.has(r.idx)
	}
	return named(e.F.Commands[i].Name)
}

// nameSet is membership in names: a scan for a few, a map for many (some
// rules name dozens of programs).
func nameSet(names []string) func(string) bool {
	if len(names) <= 6 {
		return func(n string) bool { return slices.Contains(names, n) }
	}
	// built on first use: a process that never meets the rule (a hook
	// that evaluates one call) does not pay for its map
	var once sync.Once
	var m map[string]bool
	return func(n string) bool {
		once.Do(func() {
			m = make(map[string]bool, len(names))
			for _, n := range names {
				m[n] = true
			}
		})
		return m[n]
	}
}

// Per-command answers cached for one call (Env.cmdMemo): bit "known",
// bit "value".
const (
	memoQuietKnown uint8 = 1 << iota
	memoQuiet
	memoLocalKnown
	memoLocal
	memoDryKnown
	memoDry
	memoExtSkipKnown
	memoExtSkip
)

func (e *Env) memo(i int, known, val uint8, f func(c *Cmd) bool) bool {
	if e.cmdMemo == nil {
		if n := len(e.F.Commands); n <= len(e.memoBuf) {
			e.cmdMemo = e.memoBuf[:n]
		} else {
			e.cmdMemo = make([]uint8, n)
		}
	}
	if m := e.cmdMemo[i]; m&known != 0 {
		return m&val != 0
	}
	v := f(&e.F.Commands[i])
	// read again: f may have cached another answer for this command
	m := e.cmdMemo[i] | known
	if v {
		m |= val
	}
	e.cmdMemo[i] = m
	return v
}

// dryRun is c.DryRun(), read once per command per call when c is one of
// the call's commands: some forty rules ask it of the same command, and
// each answer walks the tool table and the preview forms.
func (e *Env) dryRun(c *Cmd) bool {
	i := e.cmdIndex(c)
	if i < 0 {
		return c.DryRun()
	}
	return e.memo(i, memoDryKnown, memoDry, (*Cmd).DryRun)
}

// externalSkip: an external rule leaves the i-th command alone, read
// once per command per call (every rule of a Remote pack asks it): every
// endpoint it names is this machine (local_target.go; an HTTP client is
// judged by what it sends), or it is a hypervisor's own command on a lab
// host (ssh root@esx-lab-01 'vim-cmd vmsvc/power.off 12'). A client of
// a daemon that holds a device on this machine is not left alone.
func (e *Env) externalSkip(i int) bool {
	return e.memo(i, memoExtSkipKnown, memoExtSkip, func(c *Cmd) bool {
		// a device daemon's client (rigctl -r localhost:4532): the
		// daemon on this machine drives real hardware (remoteops.txt
		// device-daemon-cli), or a raw socket to such a daemon's port
		// (nc localhost 4532: device-daemon-ports)
		return !sendsRequests[c.Name] && !opsList("device-daemon-cli")[c.Name] && !deviceDaemonPort(c) && e.localOnly(i) || hostLocalOnLab(e, i)
	})
}

// quiet: the i-th command only reports (dry run, list, status) or asks
// for help.
func (e *Env) quiet(i int) bool {
	// c.OnlyReports(), its dry-run half read from the call's memo
	return e.memo(i, memoQuietKnown, memoQuiet, func(c *Cmd) bool { return e.dryRun(c) || c.ReportsBySub() || c.Has("--help") })
}

// localOnly: every endpoint the i-th command names is this machine, by
// its options or by the address variable named after it that the line
// sets (VAULT_ADDR=http://127.0.0.1:8200 vault …: pack_cliaddr_local.go)
// and no tunnel on the line makes it another's; or its state directory
// is set to scratch (AIRFLOW_HOME=/tmp/af), or a database client's
// named connection is a dev one (snowsql -c dev: pack_db_place.go).
func (e *Env) localOnly(i int) bool {
	return e.memo(i, memoLocalKnown, memoLocal, func(c *Cmd) bool {
		return localOnly(c) && lineTunnel(e, c) == "" && !remoteLoopback(e, c) || cliAddrLocal(e.F.Command, c.Name) || cliAddrLab(e.F.Command, c.Name) || toolHomeScratch(e, c) || storeOptScratch(e, c) || devWarehouseConn(e, c) || containerLocal(e, c)
	})
}

// remoteLoopback: c runs in another host's shell or a cluster's pod
// (ssh host '…', kubectl exec -n prod es-0 -- curl -XDELETE
// localhost:9200/x): localhost there is that host's or pod's own
// server, not this machine's. A pod of a throwaway local cluster (the
// line names a kind, minikube or k3d context) is the developer's own.
func remoteLoopback(e *Env, c *Cmd) bool {
	if !callfacts.InRemoteShell(c) {
		return false
	}
	f := strings.Fields(e.F.Command)
	for i, w := range f {
		v, ok := strings.CutPrefix(w, "--context=")
		if !ok && w == "--context" && i+1 < len(f) {
			v, ok = f[i+1], true
		}
		if ok && localKubeContext(strings.Trim(v, `"'`)) {
			return false
		}
	}
	return true
}

// containerLocal: c runs inside a container on this machine (docker
// exec, docker compose exec, podman exec) under no remote wrapper, is a
// service's console the CLI catalogue describes (callfacts/clis), names
// no endpoint elsewhere and is no hosted service's CLI: the service it
// talks to is the container's own (docker compose exec asterisk
// asterisk -rx 'dialplan reload'), when the container is a Compose
// service or named for dev or test. A line naming production, or a
// Docker host or context elsewhere, is not; nor a whole store wiped or a
// host action (systemctl stop), judged as anywhere.
func containerLocal(e *Env, c *Cmd) bool {
	if len(c.Wrappers) == 0 || opsList("remote-cli")[c.Name] || opsList("hosted-cli")[c.Name] || c.RemoteAction() == "" {
		return false
	}
	in := false
	for _, w := range c.Wrappers {
		switch f, _, _ := strings.Cut(w, " "); f {
		case "docker", "podman", "nerdctl", "docker-compose", "podman-compose":
			in = in || strings.Contains(w, "exec") || strings.Contains(w, "run")
		case "sudo", "doas", "env", "timeout", "nice", "nohup", "time", "stdbuf", "ionice", "bash", "sh", "zsh", "dash", "xargs", "watch":
		default:
			return false // ssh host '…', kubectl exec: another machine
		}
	}
	line := e.F.Command
	if !in || strings.Contains(line, "DOCKER_HOST") || strings.Contains(line, "CONTAINER_HOST") || strings.Contains(line, "--context") || strings.Contains(line, "ssh://") || strings.Contains(line, "tcp://") || strings.Contains(line, " -H ") || strings.Contains(line, "--host") || prodWord.MatchString(line) {
		return false
	}
	for _, a := range c.Args {
		if strings.Contains(a, "://") || strings.HasPrefix(a, "-h") && len(a) > 2 {
			return false
		}
	}
	if wipesWhole(c) || e.hostAction(c) != nil || !composeOrDevContainer(e, line) {
		return false // FLUSHALL, systemctl stop: judged as on a host; docker exec samba-dc …: a container may be the company's
	}
	return len(c.Args) == 0 || localOnly(c) || !namesEndpoint(c)
}

// composeOrDevContainer: the line runs in a Compose service (the
// project's own stack) or in a container named for dev or test
// (docker exec -it dev-mysql …).
func composeOrDevContainer(e *Env, line string) bool {
	if strings.Contains(line, "compose ") || strings.Contains(line, "docker-compose") {
		return true
	}
	for i := range e.F.Commands {
		d := &e.F.Commands[i]
		if n := callfacts.ExecContainer(d); n != "" {
			return devName(n)
		}
	}
	return false
}

// namesEndpoint: c names a server by an endpoint option or -h.
func namesEndpoint(c *Cmd) bool {
	for _, a := range c.Args {
		name, _, _ := strings.Cut(a, "=")
		if slices.Contains(endpointOptions, name) || name == "-h" && hostFlagCLIs[c.Name] {
			return true
		}
	}
	return false
}
