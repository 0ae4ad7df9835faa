package callfacts

import (
	"path"
	"strings"
)

// A command run on another host through a login (ssh h 'cat > targets')
// names that host's files: a relative path there is read against the
// login directory, not against this machine's cwd. The paths are still
// normalized as this machine's (Redirect.Target, PathRef.Path): the
// rules have read them so, and the zone table judges them so. What the
// command wrote is kept beside them (Elsewhere), for the words that name
// the file to the user (warden policy explain, a rule's reason).

// loginElsewhere: one of the runners of wrappers logs in to another
// host or device (ssh, mosh, pdsh, adb shell…). A cluster job (srun,
// sbatch) runs in this machine's cwd on a shared file system, and a
// container or an env prefix is not a login: they keep the reading here.
func loginElsewhere(wrappers []string) bool {
	for _, w := range wrappers {
		if remoteRunners[w] && !clusterJobs[w] || len(w) > 4 && w[:4] == "ssh " {
			return true
		}
	}
	return false
}

// clusterJobs are remoteRunners whose job starts in the submitting cwd.
var clusterJobs = map[string]bool{"sbatch": true, "srun": true, "salloc": true}

// writtenElsewhere is p as that host reads it when the text being read
// runs there, "" when it runs here: as written, or joined to the
// directory a cd there moved to (ssh h 'cd /srv && echo x > out' writes
// /srv/out; cd app: app/out).
func (n *normalizer) writtenElsewhere(p string) string {
	if !n.elsewhere {
		return ""
	}
	if n.cwd == n.thereCwd || p == "" || p[0] == '/' || p[0] == '~' || p[0] == '$' {
		return p
	}
	if rel, ok := strings.CutPrefix(n.cwd, n.thereCwd+"/"); ok {
		return path.Join(rel, p)
	}
	return path.Join(n.cwd, p)
}
