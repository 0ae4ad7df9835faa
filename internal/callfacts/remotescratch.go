package callfacts

import "strings"

// A command run on another host or device by a remote shell or a batch
// scheduler (ssh host 'rm -rf …', sbatch --wrap, srun, adb shell) acts on
// that machine's files, not this one's: its paths are zoned there. What
// the remote user keeps as scratch — the temp directories, the
// disposable part of their folder on a scratch filesystem and Android's
// /data/local/tmp (UserScratch), a tmp or scratch folder under their
// home — is scratch there as /tmp is here.

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
// in the common case): the temp directories there, the user's own
// scratch filesystem folder (UserScratch), or a tmp/cache folder under
// the remote home.
func RemoteScratch(c *Cmd, p, home string) bool {
	if !c.RunsElsewhere() {
		return false
	}
	if UserScratch(p, home) {
		return true // /scratch/USER/run42/work, /data/local/tmp/x
	}
	if strings.ContainsAny(p, "$`") || strings.Contains(p, "..") {
		return false
	}
	for _, t := range []string{"/tmp/", "/var/tmp/", "/dev/shm/"} {
		if strings.HasPrefix(p, t) && len(p) > len(t) {
			return true
		}
	}
	if home != "" && strings.HasPrefix(p, home+"/") {
		rel := strings.Split(strings.TrimPrefix(p, home+"/"), "/")
		for _, d := range rel[:len(rel)-1] {
			if strings.ContainsAny(d, "*?[") {
				return false // a folder the line does not name
			}
			if remoteScratchWords[strings.ToLower(d)] {
				return true // ~/proj/tmp/run_03 on the remote
			}
		}
	}
	return false
}
