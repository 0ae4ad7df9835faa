package policy

import "strings"

// Processes ended mid-work: a kill that finds its targets by pattern
// (pkill -f, kill $(pgrep -f …)) reaches a backup, a dump, a sync or a
// notebook kernel the user left running, and one fed every GPU process
// (nvidia-smi … | xargs kill) reaches other users' jobs on a shared
// machine. kill $(pgrep -f X) is read as pkill -f X: the same processes.

// unfinishedWork are programs whose run, cut short, leaves a half-written
// backup, dump, copy or transfer, or loses a session's state.
var unfinishedWork = map[string]bool{"borg": true, "restic": true, "duplicity": true, "duplicati": true, "rsync": true, "rclone": true, "pg_dump": true,
	"pg_dumpall": true, "pg_restore": true, "mysqldump": true, "mongodump": true, "mongorestore": true, "zfs": true, "btrfs": true, "tar": true,
	"dd": true, "apt": true, "apt-get": true, "dpkg": true, "dnf": true, "yum": true, "pacman": true, "ipykernel_launcher": true, "ipykernel": true,
	"jupyter": true, "jupyter-lab": true, "jupyter-notebook": true, "kopia": true, "velero": true, "aws": true, "gsutil": true, "azcopy": true,
	"pvesm": true, "vzdump": true, "qm": true, "syncoid": true, "sanoid": true, "snapraid": true, "mdadm": true, "fsck": true, "e2fsck": true,
	// a robot's stack stopped mid-motion; an infrastructure run cut short leaves its state locked and half applied
	"ros2": true, "roslaunch": true, "rosrun": true, "terraform": true, "tofu": true, "terragrunt": true, "pulumi": true, "ansible-playbook": true}

// killPattern is the pattern or name a pattern kill in the line finds:
// pkill's own, or pgrep's / pidof's inside kill $(…).
func killPatterns(e *Env, c *Cmd) []string {
	switch c.Name {
	case "pkill", "killall":
		return c.Pos
	case "kill":
		var out []string
		for i := range e.F.Commands {
			f := &e.F.Commands[i]
			if f.Name == "pgrep" || f.Name == "pidof" {
				out = append(out, f.Pos...)
			}
		}
		return out
	}
	return nil
}

// workOf says which unfinished work a pattern names ("borg create",
// "ipykernel_launcher", "/usr/bin/rsync -a"), "" for none.
func workOf(pattern string) string {
	for _, w := range strings.Fields(pattern) {
		w = strings.Trim(w, `'"^$`)
		if i := strings.LastIndex(w, "/"); i >= 0 {
			w = w[i+1:]
		}
		if unfinishedWork[strings.ToLower(w)] {
			return w
		}
		if strings.HasPrefix(w, "-") || strings.Contains(w, "=") {
			continue
		}
		if !strings.Contains(w, "python") && !strings.Contains(w, "sudo") {
			return "" // the first real word names the program
		}
	}
	return ""
}

func killWorkRules() []Rule {
	return []Rule{
		cmdRule("core.destroy:kill-work", Ask, "Ending, by pattern, work that leaves a half-written result or loses state when cut short (pkill -f 'borg create', kill $(pgrep -f pg_dump), kill -9 $(pgrep -f ipykernel_launcher)), or every GPU process (nvidia-smi --query-compute-apps=pid … | xargs kill): backups, dumps, syncs, package installs and notebook kernels; one dev server's command line stays routine",
			[]string{"kill", "pkill", "killall"},
			func(e *Env, c *Cmd) string {
				if endsNothing(c) {
					return ""
				}
				if c.Name == "kill" && contains(c.Upstream, "nvidia-smi") {
					return "kill ends every process on the GPUs, other users' jobs too: " + c.String()
				}
				for _, p := range killPatterns(e, c) {
					if w := workOf(p); w != "" {
						return c.Name + " ends " + w + " mid-work: " + c.String()
					}
				}
				return ""
			},
			[]string{"kill $(pgrep -f 'borg create')", "pkill -f 'restic backup'", "kill -9 $(pgrep -f ipykernel_launcher)", "pkill -f '/usr/bin/rsync -a /srv/ nas:/backup'",
				"nvidia-smi --query-compute-apps=pid --format=csv,noheader | xargs -r kill -9", "kill $(pgrep -f 'pg_dump -Fc prod')", "pkill -f 'python -m ipykernel_launcher'"},
			[]string{"kill $(pgrep -f 'node server.js')", "pkill -f 'vite --port 5173'", "kill $(cat .anvil.pid)", "kill -9 1234", "pgrep -f 'borg create'", "kill -l", "pkill -f 'python app.py'"}),
	}
}
