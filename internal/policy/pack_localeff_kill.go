package policy

import (
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// foreignPidFileKillRule: kill "$(cat F)" or PID=$(head -1 F); kill
// "$PID" ends the process a pid or lock file names. In the project or
// in temp that file is the developer's own server's; anywhere else in
// home or on the machine (a build's bitbake.lock under ~/yocto, a
// daemon's ~/.local/state/app/app.pid) it is the holder of other work:
// a build, a sync, an application the user runs, ended mid-way. System
// services' pid files (/run) are kill-service-pidfile's.
func foreignPidFileKillRule() Rule {
	return cmdRule("core.destroy:kill-foreign-pidfile", Ask, "Ending the process a pid or lock file outside the project and temp names (PID=$(head -1 ~/yocto/build/bitbake.lock); kill -9 \"$PID\", kill $(cat ~/.local/state/syncthing/syncthing.pid)): the holder of another job's lock, a build or an application the user runs, ended mid-work; a pid file in the project or /tmp is the developer's own process", killTools,
		func(e *Env, c *Cmd) string {
			if !signalsSubstitutedPid(c) {
				return ""
			}
			for _, p := range e.F.Paths {
				if p.Op != callfacts.OpRead && p.Op != callfacts.OpArg || !pidHolderFile(p.Path) || servicePidFile(p.Path) {
					continue
				}
				switch callfacts.ZoneOf(p.Path, e.F.Home, e.F.Project) {
				case callfacts.ZoneProject, callfacts.ZoneRepo, callfacts.ZoneTemp, callfacts.ZoneUnknown:
					continue
				}
				return c.Name + " ends the process " + homeRel(p.Path, e.F.Home) + " names, outside the project: " + c.String()
			}
			return ""
		},
		[]string{"PID=$(head -1 ~/yocto/build/bitbake.lock); kill -9 \"$PID\"", "kill $(cat ~/.local/state/syncthing/syncthing.pid)", "kill -TERM $(cat /srv/minecraft/server.pid)",
			"kill -9 `cat ~/.local/share/notely/instance.lock`", "read P < ~/jobs/train.pid; kill \"$P\"", "kill -HUP $(< /opt/app/var/app.pid)"},
		[]string{"kill $(cat /tmp/server.pid)", "kill $(cat .dev.pid)", "kill -9 $(cat build/vite.pid)", "cat ~/yocto/build/bitbake.lock", "kill -0 $(cat ~/jobs/train.pid)", "kill -9 1234"})
}

// pidHolderFile: a file named as a pid or a lock holder's record
// (x.pid, pidfile, bitbake.lock, LOCK).
func pidHolderFile(p string) bool {
	b := strings.ToLower(path.Base(p))
	return strings.HasSuffix(b, ".pid") || strings.HasSuffix(b, ".lock") || b == "pid" || b == "pidfile" || b == "lock" || strings.HasSuffix(b, ".lck")
}
