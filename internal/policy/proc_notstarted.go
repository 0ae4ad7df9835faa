package policy

import (
	"strings"
)

// Processes, containers and batch jobs the line did not start (s21
// product decision: the levels ask before "killing processes the agent
// did not start"). Each Bash call is a new shell, so what a line can
// prove it started is what the same line started: a job's $!, a
// container it ran with --name, the job id its own sbatch/qsub printed.
// A literal pid, container name or job id is something running already
// — a printer's server, a broker, a colleague's training run, a job that
// has been queued for a day — and stopping, pausing, killing or
// re-prioritizing it asks:
//   - kill SIG PID with a literal pid (kill -STOP 48211, kill -9 12345);
//     kill -0 (is it alive?) and -CONT (resume) change nothing; a pid in
//     a variable, a pid file or a finder's output is judged by the kill
//     rules of pack_kill.go and pack_pidfile_kill.go;
//   - renice, ionice, chrt and taskset aimed at running pids (-p, -g, -u,
//     or renice's bare pids), unless the pid is the line's own ($$, $!);
//   - docker/podman/nerdctl stop, kill, restart, pause of a container
//     named literally, unless the line created it (run/create --name) or
//     its name marks it dev or test (devName: the developer's own, as the
//     levels allow); a compose project's own services and containers
//     picked by a filter are pack_localeff_containers.go's;
//   - a batch scheduler's or workflow engine's cancel, hold or kill of a
//     literal job id (scancel 1234567, qdel -W force 51234.pbs01, bkill
//     4242, condor_rm 77.0, flux job kill ƒ…, verdi process kill 10234);
//     an id the same line's submit printed ($JOB from sbatch --parsable)
//     is the line's own, and the user's own jobs chosen by a name
//     (scancel -u $USER --name=sweep) stay with pack_others_jobs.go.

// calmSignals change nothing a process was doing.
var calmSignals = map[string]bool{"0": true, "CONT": true, "18": true}

// jobKillers: a scheduler's or workflow engine's verbs that cancel,
// hold, suspend or kill jobs, by program ("" when any argument list
// does: the program's only act); the job ids follow.
var jobKillers = map[string][]string{
	"scancel": {""}, "qdel": {""}, "bkill": {""}, "bstop": {""}, "condor_rm": {""}, "condor_hold": {""}, "canceljob": {""},
	"qsig": {""}, "qhold": {""}, "qrerun": {""}, "oardel": {""}, "pjdel": {""}, "llcancel": {""},
	"scontrol": {"hold", "suspend", "requeue", "requeuehold", "kill"},
	"flux":     {"cancel", "kill"}, // flux job cancel|kill ID, flux cancel ID
	"verdi":    {"kill", "pause"},  // verdi process kill|pause PK…
}

// literalID: a job or process id as a number or a scheduler's id
// (51234.pbs01, 4242_7, 77.0, fAbCdEf123), not an option or a variable.
func literalID(a string) bool {
	if a == "all" || a == "ALL" {
		return true // qdel all: every job of the user
	}
	if a == "" || strings.HasPrefix(a, "-") || strings.ContainsAny(a, "$`*=/") {
		return false
	}
	return a[0] >= '0' && a[0] <= '9' || strings.HasPrefix(a, "f") && len(a) > 4 && !strings.ContainsAny(a, ".-_") && hasDigit(a)
}

func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// lineStarted: v names what the line itself started — its shell's own
// pid, its last background job, or a variable the line set from a
// submit or run command.
func lineStarted(e *Env, v string) bool {
	switch strings.Trim(v, `"'{}`) {
	case "$$", "$!", "$BASHPID", "${!}", "$PPID":
		return true
	}
	return false
}

func procNotStartedRules() []Rule {
	return []Rule{
		cmdRule("core.local:signal-running", Ask, "A signal that stops, pauses or ends a process the line names by a literal pid (kill -STOP 48211, kill -9 12345): each command is a new shell, so the pid is something already running that the line did not start; kill -0 and -CONT change nothing", []string{"kill"},
			func(e *Env, c *Cmd) string {
				if containerExec(c) || endsNothing(c) {
					return "" // kill inside a container: kill_container.go
				}
				sig, pids := killSigTargets(c)
				if calmSignals[sig] {
					return ""
				}
				for _, p := range pids {
					if isNumber(p) && strings.TrimPrefix(p, "-") != "1" {
						return "kill signals pid " + p + ", a process the line did not start: " + c.String()
					}
				}
				return ""
			},
			[]string{"kill -STOP 48211", "kill -9 12345", "kill 4242 4243", "kill -s TERM 31337", "sudo kill -HUP 2210"},
			[]string{"kill -0 48211", "kill -CONT 48211", "kill %1", "kill $!", "kill -l", "sleep 60 & kill $!", "docker exec api kill -HUP 1"}),
		cmdRule("core.local:renice-running", Ask, "Changing the priority, scheduling class or CPUs of processes already running (renice -n 19 -p $(pgrep -f MirrorMaker), ionice -c3 -p 812, chrt -f -p 50 912, taskset -cp 0 4021, renice -u alice): the line did not start them; its own shell ($$) or background job ($!) is routine", []string{"renice", "ionice", "chrt", "taskset"},
			func(e *Env, c *Cmd) string {
				var targets []string
				switch c.Name {
				case "renice":
					targets = reniceTargets(c)
				default:
					if !pidMode(c) {
						return "" // ionice -c3 make, chrt -f 10 ./bench, taskset -c 0 ./app: a command it starts
					}
					targets = c.Pos
				}
				for _, t := range targets {
					if !lineStarted(e, t) && !calmTaskset(c, t) {
						return c.Name + " changes how " + t + " runs, a process the line did not start: " + c.String()
					}
				}
				return ""
			},
			[]string{"renice -n 19 -p $(pgrep -f MirrorMaker)", "renice +15 -p 2231", "ionice -c3 -p 812", "chrt -f -p 50 912", "taskset -cp 0 4021", "renice -n 5 -u alice"},
			[]string{"renice -n 10 $$", "renice +5 -p $!", "ionice -c3 make -j8", "chrt -f 10 ./bench", "taskset -c 0 ./app", "nice -n 19 make", "taskset -p 4021", "chrt -p 912"}),
		cmdRule("core.local:stop-running-container", Ask, "A running container stopped, killed, restarted or paused by a literal name the line did not create (docker stop zookeeper-1 kafka-1, docker restart qsys-bridge, podman kill mqtt): a service others or devices use goes down; containers the same line ran with --name, and ones named dev or test, are the developer's own", []string{"docker", "podman", "nerdctl"},
			func(e *Env, c *Cmd) string {
				s, at := containerSub(c)
				switch s {
				case "stop", "kill", "restart", "pause":
				default:
					return ""
				}
				if c.Has("--help", "-h") {
					return ""
				}
				made := lineContainers(e)
				for _, n := range c.Pos[min(at, len(c.Pos)):] {
					if strings.ContainsAny(n, "$`") || made[n] || devName(n) {
						continue // a picked id ($(docker ps -q …)): pack_devctl_killpick.go
					}
					return c.Name + " " + s + " " + n + ": a running container the line did not start: " + c.String()
				}
				return ""
			},
			[]string{"docker stop zookeeper-1 kafka-1 kafka-2", "docker restart qsys-bridge", "podman kill mqtt", "docker container pause grafana", "nerdctl stop minio"},
			[]string{"docker run -d --name scratch-pg postgres:16 && docker stop scratch-pg", "docker stop api-dev", "docker kill e2e-test-runner", "docker restart $(docker ps -q --filter name=api-dev)", "docker ps", "docker start kafka-1"}),
		cmdRule("core.local:cancel-running-job", Ask, "A batch scheduler's or workflow engine's job cancelled, held or killed by a literal id (scancel 1234567, qdel -W force 51234.pbs01, bkill 4242, condor_rm 77.0, scontrol hold 991, verdi process kill 10234): the line did not submit it, and its queue time and finished work are lost; an id the line's own submit printed, and the user's jobs chosen by name, stay allowed", jobKillerNames(),
			func(e *Env, c *Cmd) string {
				verbs := jobKillers[c.Name]
				if c.Has("--help", "-h", "--version") {
					return ""
				}
				ids := c.Pos
				if verbs[0] != "" {
					i := -1
					for j, p := range c.Pos {
						for _, v := range verbs {
							if p == v {
								i = j
							}
						}
						if i >= 0 {
							break
						}
					}
					if i < 0 {
						return ""
					}
					ids = c.Pos[i+1:]
				}
				for _, id := range ids {
					if literalID(id) {
						return c.Name + " ends job " + id + ", which the line did not submit: " + c.String()
					}
				}
				return ""
			},
			[]string{"scancel 1234567", "qdel -W force 51234.pbs01", "bkill 4242", "condor_rm 77.0", "scontrol hold 991", "verdi process kill 10234 10235", "flux job cancel f2xZ9hQ7"},
			[]string{"JOB=$(sbatch --parsable run.sh) && scancel $JOB", "scancel -u $USER --name=sweep", "squeue --me -h -n sweep -o %i | xargs scancel", "scontrol show job 991", "verdi process list", "qstat -u dev", "scancel --help"}),
	}
}

func jobKillerNames() []string {
	out := make([]string, 0, len(jobKillers))
	for n := range jobKillers {
		out = append(out, n)
	}
	return out
}

// reniceTargets: what renice changes — the -p/-g/-u operands and bare
// pids after the priority.
func reniceTargets(c *Cmd) []string {
	var out []string
	prio := false
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		switch {
		case a == "-n" || a == "--priority":
			i++
		case a == "-p" || a == "--pid" || a == "-g" || a == "--pgrp" || a == "-u" || a == "--user":
		case strings.HasPrefix(a, "-") && isNumber(a) && !prio:
			prio = true // renice -5 -p 12
		case strings.HasPrefix(a, "+") && !prio:
			prio = true
		case strings.HasPrefix(a, "-"):
		default:
			if !prio && isNumber(a) && !c.Has("-n", "--priority") {
				prio = true // renice 10 -p 12: the first number is the priority
				continue
			}
			out = append(out, a)
		}
	}
	return out
}

// calmTaskset: taskset -p PID only prints the pid's affinity (a mask
// or list before the pid sets it); chrt -p PID prints its policy.
func calmTaskset(c *Cmd, t string) bool {
	switch c.Name {
	case "taskset":
		return len(c.Pos) == 1
	case "ionice":
		for _, a := range c.Args {
			if strings.HasPrefix(a, "-c") || strings.HasPrefix(a, "-n") || strings.HasPrefix(a, "--class") {
				return false
			}
		}
		return true // ionice -p 812: prints its class
	case "chrt":
		return len(c.Pos) == 1 && !c.Has("-f", "-r", "-b", "-i", "-o", "-d", "--fifo", "--rr", "--batch", "--idle", "--other", "--deadline")
	}
	return false
}

// lineContainers: names the line's own docker/podman run or create gave
// its containers (--name X, --name=X).
func lineContainers(e *Env) map[string]bool {
	m := map[string]bool{}
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if c.Name != "docker" && c.Name != "podman" && c.Name != "nerdctl" {
			continue
		}
		s := c.Sub(0)
		if s == "container" {
			s = c.Sub(1)
		}
		if s != "run" && s != "create" {
			continue
		}
		if v := optValue(c, "--name"); v != "" {
			m[v] = true
		}
	}
	return m
}

// pidMode: ionice, chrt or taskset is given running pids (-p, --pid,
// taskset -cp, ionice -P/-u) before any command it would start (ionice
// -c3 rsync -a …: rsync's -a is not taskset's).
func pidMode(c *Cmd) bool {
	for _, a := range c.Args {
		switch {
		case a == "-p" || a == "--pid" || a == "-cp" || a == "-pc" || a == "-ap" || a == "-pa" || c.Name == "ionice" && (a == "-P" || a == "--pgid" || a == "-u" || a == "--uid"):
			return true
		case strings.HasPrefix(a, "-") || isNumber(a):
		default:
			return false // the command it starts
		}
	}
	return false
}
