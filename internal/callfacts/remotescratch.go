package callfacts

import (
	"path"
	"strings"
)

// A command run on another host or device by a remote shell or a batch
// scheduler (ssh host 'rm -rf …', sbatch --wrap, srun, adb shell) acts on
// that machine's files, not this one's: its paths are zoned there. What
// the remote user keeps as scratch — the temp directories, an HPC scratch
// or work area named for the user (/scratch/USER/…), Android's
// /data/local/tmp, a tmp or scratch folder under their home — is scratch
// there as /tmp is here.

// remoteRunners are the wrappers that run their command elsewhere.
var remoteRunners = map[string]bool{"ssh": true, "adb shell": true, "sbatch": true, "srun": true, "salloc": true, "pdsh": true, "clush": true,
	"pssh": true, "parallel-ssh": true, "vagrant ssh": true, "mosh": true}

// RunsElsewhere reports whether c runs on another host or device.
func (c *Cmd) RunsElsewhere() bool {
	for _, w := range c.Wrappers {
		if remoteRunners[w] || strings.HasPrefix(w, "ssh ") {
			return true
		}
	}
	return false
}

// remoteScratchWords name a folder kept for throwaway files.
var remoteScratchWords = map[string]bool{"tmp": true, "temp": true, "scratch": true, ".cache": true, "cache": true}

// RemoteScratch reports whether p, a target of c, is scratch on the host
// or device c runs on (home is this machine's home: a remote ~ is
// normalized against it, and its base name is the user's name there too
// in the common case).
func RemoteScratch(c *Cmd, p, home string) bool {
	if !c.RunsElsewhere() || strings.ContainsAny(p, "$") {
		return false
	}
	for _, t := range []string{"/tmp/", "/var/tmp/", "/dev/shm/", "/data/local/tmp/"} {
		if strings.HasPrefix(p, t) && len(p) > len(t) {
			return true
		}
	}
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	user := path.Base(home)
	if len(parts) >= 3 && (parts[0] == "scratch" || parts[0] == "work" || parts[0] == "lustre" || parts[0] == "gpfs") && parts[1] == user {
		return true // /scratch/USER/run42: the user's own area on a cluster's scratch
	}
	if home != "" && strings.HasPrefix(p, home+"/") {
		rel := strings.Split(strings.TrimPrefix(p, home+"/"), "/")
		for _, d := range rel[:len(rel)-1] {
			if remoteScratchWords[strings.ToLower(d)] {
				return true // ~/proj/tmp/run_03 on the remote
			}
		}
	}
	return false
}
