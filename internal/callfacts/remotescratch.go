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
var remoteRunners = map[string]bool{"ssh": true, "adb shell": true, "sdb shell": true, "hdc shell": true, "ares-shell": true, "sbatch": true, "srun": true, "salloc": true, "pdsh": true, "clush": true,
	"pssh": true, "parallel-ssh": true, "vagrant ssh": true, "mosh": true, "invoke-command": true}

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
	if UserScratch(p, home) || deviceAppScratch(c, p) {
		return true // /scratch/USER/run42/work, /data/local/tmp/x, an app's cache on a device (devicescratch.go)
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
		return scratchBelowHome(strings.TrimPrefix(p, home+"/"))
	}
	for _, r := range remoteHomeRoots {
		// the login user's home there is not this machine's: /u/devusr1 on
		// z/OS, /home/ci on a build box
		if rest, ok := strings.CutPrefix(p, r); ok {
			if _, below, ok := strings.Cut(rest, "/"); ok {
				return scratchBelowHome(below)
			}
		}
	}
	return false
}

// remoteHomeRoots hold one home folder per user on a remote host.
var remoteHomeRoots = []string{"/home/", "/u/", "/Users/", "/export/home/"}

// scratchBelowHome: rel, a path below a home folder, lies in a tmp or
// cache folder (~/proj/tmp/run_03), or is one below a project folder
// (~/build/tmp). A home's own tmp (~/tmp) may be where the user keeps
// things and is left to the other rules; below a home's scratch folder
// only its disposable part is (~/scratch/run42/work, not
// ~/scratch/crsp_2023).
func scratchBelowHome(rel string) bool {
	parts := strings.Split(rel, "/")
	if len(parts) > 1 && strings.EqualFold(parts[0], "scratch") {
		// ~/scratch is the user's scratch space there (a cluster links
		// it to the scratch filesystem): a run's data kept in it
		// (~/scratch/crsp_2023) may be the only copy, as in
		// /scratch/USER; only a part named temporary or a work folder
		// is disposable (UserScratch)
		return disposablePart(strings.Join(parts[1:], "/"))
	}
	for _, d := range parts {
		if strings.ContainsAny(d, "*?[") {
			return false // a folder the line does not name
		}
		if remoteScratchWords[strings.ToLower(d)] && len(parts) > 1 {
			return true // ~/proj/tmp/run_03, /u/devusr1/build/tmp on the remote
		}
	}
	return false
}
