package callfacts

import (
	"path"
	"strings"
)

// A user's own scratch space off the project: a cluster's scratch
// filesystem holds a folder per user (/scratch/dev, /lustre/scratch/dev,
// /gpfs/scratch/dev), purged by the site and meant for job output; an
// Android device's shell scratch (/data/local/tmp) is the one folder adb
// pushes to and clears. The user keeps results there too: only a part
// named as temporary or as a run's work folder (proj_tmp, run42/work,
// cache) is disposable like /tmp; rnaseq-old may be the only copy.

// scratchRoots hold one folder per user.
var scratchRoots = []string{"/scratch", "/scratch1", "/scratch2", "/scratch/users", "/lustre/scratch", "/gpfs/scratch",
	"/global/scratch", "/fs/scratch", "/mnt/scratch"}

// UserScratch reports whether p is in the home user's folder of a
// scratch filesystem, or in a device's shell scratch.
func UserScratch(p, home string) bool {
	if within(p, "/data/local/tmp") && p != "/data/local/tmp" {
		return true
	}
	user := path.Base(home)
	if home == "" || user == "/" || user == "." {
		return false
	}
	for _, r := range scratchRoots {
		for _, u := range []string{user, "$USER", "${USER}"} {
			own := r + "/" + u
			if rest, ok := strings.CutPrefix(p, own+"/"); ok && disposablePart(rest) {
				return true
			}
		}
	}
	return false
}

// disposablePart: a folder of rel (below the user's scratch folder) is
// named as temporary or as a workflow's work folder.
func disposablePart(rel string) bool {
	parts := strings.Split(rel, "/")
	if leaf := parts[len(parts)-1]; strings.ContainsAny(leaf, "*?[") {
		// proj_tmp/*: judged by the folder it empties; tmp_regrid_*: by
		// the fixed part every match starts with as well.
		parts[len(parts)-1] = leaf[:strings.IndexAny(leaf, "*?[")]
	}
	for _, d := range parts {
		for _, w := range strings.FieldsFunc(strings.ToLower(d), func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
			switch w {
			case "tmp", "temp", "work", "cache", "scratch", "trash":
				return true
			}
		}
	}
	return false
}
