package policy

import (
	"strings"
)

// Fleets and runtimes: commands that run or remove things on many
// machines at once, or hand a container the host.
//
//   - A command sent to a fleet (aws ssm send-command, ansible or salt
//     ad-hoc, pdsh) whose payload stops, reboots, wipes or kills is
//     denied; salt-key deleting every minion's key is too.
//   - Configuration code on the line (puppet apply -e, ansible -m user,
//     salt state.single) that creates a uid-0 user or adds one to an
//     admin group is denied.
//   - A container runtime told to remove every container, pod or image
//     (crictl rmp -a, ctr … rm $(ctr … ls -q)) is denied.
//   - A container given the Docker or containerd socket asks: it controls
//     the host.

// fleetPayloadBad: a payload that stops, reboots, wipes or kills —
// taking a machine's storage or network away stops what runs on it too
// (umount of a file system, swapoff, ifdown or a link set down, a
// volume group deactivated, an array stopped, a pool exported).
var fleetPayloadBad = re(`(?i)\b(reboot|shutdown|poweroff|halt|init\s+[06]|rm\s+-[a-z]*[rf]|mkfs|dd\s+if=|wipefs|userdel|kill(all)?\s|pkill|systemctl\s+(stop|disable|mask|isolate)|service\s+\S+\s+stop|iptables\s+-F|truncate\s+-s\s*0|drop\s+(database|table)|state=(stopped|absent)|` +
	`umount\s|swapoff\s|ifdown\s|ip\s+link\s+set\s+\S+\s+down|vgchange\s+(-\S+\s+)*-an\b|mdadm\s+(-\S+\s+)*(--stop|-S)\b|zpool\s+export\s)`)

// puppetAbsent, puppetSysTop, puppetForce, puppetSysPath, chefDeleteTree,
// chefRecursive: a manifest's or recipe's removal of a system
// directory (config-remove-system).
var (
	puppetAbsent   = re(`(?i)\bensure\s*=>\s*["']?absent\b`)
	puppetSysTop   = re(`["'](/|/(etc|var|usr|boot|bin|sbin|lib|lib64|opt|srv|home|root)/?)["']`)
	puppetForce    = re(`(?i)\b(force\s*=>\s*["']?true|recurse\s*=>\s*["']?true|purge\s*=>\s*["']?true)`)
	puppetSysPath  = re(`["']/(etc|var|usr|boot|bin|sbin|lib|lib64|opt|srv|home|root)(/[^"']*)?["']`)
	chefDeleteTree = re(`(?i)\bdirectory\b.*\baction\s*\[?\s*:delete|\baction\s*\[?\s*:delete.*\bdirectory\b`)
	chefRecursive  = re(`(?i)\brecursive\s*(true|=\s*true)`)
)

// rootUser: configuration code creating a uid-0 user or adding one to an
// administrators' group.
var rootUser = re(`(?i)\buid\s*(=>|=|:)?\s*["']?0\b|\b(groups?|append_groups)\s*(=>|=|:)\s*[\[("']*[^;)}]*\b(sudo|wheel|admin|root)\b`)

// fleetRunners send a command to many machines.
var fleetRunners = []string{"aws", "gcloud", "az", "ansible", "salt", "salt-ssh", "pdsh", "pssh", "parallel-ssh", "clush", "mussh", "fab", "knife", "mco", "bolt"}

func fleetPayload(c *Cmd) string {
	switch c.Name {
	case "aws":
		if sub(c) == "ssm" && c.Sub(1) == "send-command" {
			return strings.Join(c.Args, " ")
		}
	case "gcloud", "az":
		return "" // run-command / ssh --command: the remote payload reading judges them
	case "ansible":
		if m := optValue(c, "-m"); m == "reboot" || m == "win_reboot" {
			return "reboot"
		}
		for i, a := range c.Args {
			if (a == "-a" || a == "--args") && i+1 < len(c.Args) {
				return c.Args[i+1]
			}
		}
	case "salt", "salt-ssh":
		if anyPos(c, "cmd.run", "cmd.shell", "cmd.script", "system.reboot", "system.shutdown", "system.poweroff", "system.halt") {
			return strings.Join(c.Args, " ")
		}
	case "knife":
		if sub(c) == "ssh" {
			return strings.Join(c.Args, " ")
		}
	default:
		return strings.Join(c.Pos, " ")
	}
	return ""
}

func fleetRules() []Rule {
	return []Rule{
		cmdRule("external.systems:fleet-destroy", Deny, "A command sent to many machines (aws ssm send-command, ansible/salt ad-hoc, pdsh, knife ssh) that reboots, stops, wipes or kills; salt-key deleting minions' keys", append(fleetRunners, "salt-key"),
			func(e *Env, c *Cmd) string {
				if onlyHelp(c) || c.Has("--check", "-C", "--syntax-check", "--list-hosts") && c.Name == "ansible" {
					return ""
				}
				if c.Name == "salt-key" {
					if c.Has("-D", "--delete-all", "-d", "--delete", "-R", "--reject-all") {
						return "salt-key removes minions' keys: the master stops managing them: " + c.String()
					}
					return ""
				}
				if _, net := ansibleDeviceLines(c); net {
					return "" // a network module's commands are a device's (no shutdown brings a port up): external.systems:device-* judge them
				}
				p := fleetPayload(c)
				if c.Name == "salt" && anyPos(c, "system.reboot", "system.shutdown", "system.poweroff", "system.halt") {
					return "salt reboots or stops its targets: " + c.String()
				}
				if p != "" && fleetPayloadBad.MatchString(p) {
					return c.Name + " sends many machines a command that stops, reboots, wipes or kills: " + c.String()
				}
				return ""
			},
			[]string{"aws ssm send-command --document-name AWS-RunShellScript --targets Key=tag:env,Values=prod --parameters 'commands=[\"reboot\"]'", "aws ssm send-command --document-name AWS-RunShellScript --instance-ids i-1 i-2 --parameters commands='systemctl stop app'",
				"ansible webservers -m shell -a 'rm -rf /var/www/*' -b", "salt '*' cmd.run 'shutdown -h now'", "salt-key -D -y", "pdsh -w node[01-20] 'sudo reboot'", "salt '*' system.reboot", "ansible all -i prod.ini -m reboot", "ansible web -m service -a 'name=nginx state=stopped' -b"},
			[]string{"aws ssm send-command --document-name AWS-RunShellScript --targets Key=tag:env,Values=prod --parameters 'commands=[\"uptime\"]'", "ansible all -m ping", "ansible webservers -m shell -a 'df -h'",
				"salt-key -L", "salt '*' test.ping", "pdsh -w node[01-20] uptime", "aws ssm describe-instance-information"}),
		cmdRule("external.systems:config-remove-system", Deny, "Configuration-management code on the line (puppet apply -e, chef-apply -e, mgmt) that removes a system directory: a Puppet resource ensure => absent on /etc, /var, /usr… (forced when deeper), a Chef directory deleted recursively there", []string{"puppet", "chef-apply", "mgmt"},
			func(e *Env, c *Cmd) string {
				if onlyHelp(c) || c.Has("--noop", "--why-run", "-W") {
					return ""
				}
				a := strings.Join(c.Args, " ")
				if !strings.Contains(a, "/") {
					return ""
				}
				if puppetAbsent.MatchString(a) && (puppetSysTop.MatchString(a) || puppetForce.MatchString(a) && puppetSysPath.MatchString(a)) {
					return c.Name + " removes a system directory: " + c.String()
				}
				if chefDeleteTree.MatchString(a) && chefRecursive.MatchString(a) && puppetSysPath.MatchString(a) {
					return c.Name + " deletes a system directory tree: " + c.String()
				}
				return ""
			},
			[]string{"sudo puppet apply -e 'file { \"/etc\": ensure => absent, force => true }'", "puppet apply -e \"file { '/var/lib/postgresql': ensure => 'absent', force => true }\"",
				"chef-apply -e 'directory \"/var\" do action :delete; recursive true end'", "sudo chef-apply -e \"directory '/etc/nginx' do recursive true; action :delete end\""},
			[]string{"puppet apply -e 'package { \"telnet\": ensure => absent }'", "puppet apply -e 'file { \"/tmp/build\": ensure => absent, force => true }'", "puppet apply -e 'file { \"/etc/motd\": ensure => present }'",
				"puppet apply --noop -e 'file { \"/etc\": ensure => absent, force => true }'", "chef-apply -e 'directory \"/tmp/x\" do action :delete; recursive true end'"}),
		cmdRule("external.systems:fleet-root-user", Deny, "Configuration-management code on the line (puppet apply -e, ansible -m user, salt state.single user.present, chef-apply -e) that creates a uid-0 user or adds one to sudo/wheel/admin", []string{"puppet", "ansible", "salt", "salt-call", "salt-ssh", "chef-apply", "mgmt", "cdist", "pyinfra"},
			func(e *Env, c *Cmd) string {
				a := strings.Join(c.Args, " ")
				if !strings.Contains(strings.ToLower(a), "user") {
					return ""
				}
				if rootUser.MatchString(a) {
					return c.Name + " creates a root-equivalent user: " + c.String()
				}
				return ""
			},
			[]string{"sudo puppet apply -e 'user { \"svc\": ensure => present, uid => 0, groups => [\"sudo\"], password => \"x\" }'", "ansible all -b -m user -a 'name=ops uid=0 non_unique=yes'",
				"ansible db -m user -a 'name=dev groups=wheel append=yes' -b", "salt '*' state.single user.present name=svc uid=0", "chef-apply -e 'user \"x\" do uid 0 end; group \"sudo\" do members [\"x\"] end'"},
			[]string{"puppet apply -e 'user { \"svc\": ensure => present, uid => 1500 }'", "ansible all -m user -a 'name=deploy shell=/bin/bash'", "puppet apply manifests/site.pp --noop", "salt '*' user.info root"}),
		cmdRule("external.systems:runtime-wipe", Deny, "A container runtime told to remove every container, pod or image of the node (crictl rm/rmp/rmi -a, ctr … rm $(ctr … ls -q), nerdctl rm -f $(nerdctl ps -aq)): on a cluster node it takes down every workload", []string{"crictl", "ctr", "nerdctl"},
			func(e *Env, c *Cmd) string {
				if onlyHelp(c) {
					return ""
				}
				rm := false
				for _, p := range c.Pos {
					if p == "rm" || p == "rmp" || p == "rmi" || p == "delete" || p == "del" || p == "remove" {
						rm = true
					}
				}
				if !rm {
					return ""
				}
				if c.Name == "crictl" && c.Has("-a", "--all") {
					return "crictl removes every container, pod or image of the node: " + c.String()
				}
				for _, p := range c.Pos {
					if p == "$(…)" || strings.HasPrefix(p, "$(") || strings.HasPrefix(p, "`") {
						for _, d := range e.F.Commands {
							if d.Name == c.Name && d.Captured && (anyPos(&d, "ls", "list", "ps") || d.Has("-q")) && !danglingOnly(e, c.Name) {
								return c.Name + " removes everything its own listing prints: " + c.String()
							}
						}
					}
				}
				return ""
			},
			[]string{"crictl rmp -fa", "crictl rm -a", "crictl rmi --all", "ctr -n k8s.io containers rm $(ctr -n k8s.io containers ls -q)", "nerdctl rm -f $(nerdctl ps -aq)"},
			[]string{"crictl ps -a", "crictl rm 3f2a", "ctr -n k8s.io containers ls", "crictl rmi --prune", "nerdctl rm web"}),
		cmdRule("external.systems:container-host-socket", Ask, "A container given the Docker, containerd or Podman socket (-v /var/run/docker.sock:…): whoever runs in it controls the host's containers, and through them the host", []string{"docker", "podman", "nerdctl"},
			func(e *Env, c *Cmd) string {
				if s := sub(c); s != "run" && s != "create" && !(s == "container" && (c.Sub(1) == "run" || c.Sub(1) == "create")) && s != "service" {
					return ""
				}
				for _, a := range c.Args {
					if strings.Contains(a, "docker.sock") || strings.Contains(a, "containerd.sock") || strings.Contains(a, "podman.sock") || strings.Contains(a, "crio.sock") {
						return c.Name + " hands a container the host's container socket: " + c.String()
					}
				}
				return ""
			},
			[]string{"docker run -d -v /var/run/docker.sock:/var/run/docker.sock portainer/portainer-ce", "docker run --rm -v /run/containerd/containerd.sock:/run/containerd/containerd.sock img",
				"podman run -v $XDG_RUNTIME_DIR/podman/podman.sock:/var/run/docker.sock img", "docker create --mount type=bind,source=/var/run/docker.sock,target=/var/run/docker.sock ci-runner"},
			[]string{"docker run -d -p 9000:9000 portainer/portainer-ce", "docker ps", "docker run --rm -v $PWD:/src img make", "ls -l /var/run/docker.sock"}),
		cmdRule("external.systems:ssh-unverified", Ask, "A remote login that skips the host-key check (StrictHostKeyChecking=no) or gives a password on the line (sshpass): whoever answers at that address gets the session and what it sends", []string{"ssh", "scp", "sftp", "sshpass", "rsync", "autossh"},
			func(e *Env, c *Cmd) string {
				if c.Name == "sshpass" {
					return "sshpass logs in with a password given on the line: " + c.String()
				}
				if onlyHelp(c) {
					return ""
				}
				a := strings.ToLower(strings.Join(c.Args, " "))
				a = strings.ReplaceAll(strings.ReplaceAll(a, " = ", "="), "stricthostkeychecking ", "stricthostkeychecking=")
				if strings.Contains(a, "stricthostkeychecking=no") || strings.Contains(a, "stricthostkeychecking=off") {
					return c.Name + " connects without checking the host's key: " + c.String()
				}
				return ""
			},
			[]string{"ssh -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null root@203.0.113.40", "sshpass -p 'hunter2' ssh root@192.0.2.4 uptime", "scp -o StrictHostKeyChecking=no dump.sql admin@198.51.100.7:/tmp/", "rsync -e 'ssh -o StrictHostKeyChecking=no' -a dist/ web:/srv/"},
			[]string{"ssh -o StrictHostKeyChecking=accept-new git@github.com", "ssh root@192.0.2.4 uptime", "scp dump.sql admin@198.51.100.7:/tmp/", "ssh -o ConnectTimeout=5 host true"}),
	}
}
