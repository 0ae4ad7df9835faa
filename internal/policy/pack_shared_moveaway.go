package policy

import (
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// sharedMoveAwayRule: moving a whole folder off its place on shared
// storage (mv /gpfs/proj/shared/era5 /lustre/scratch/me/old) is, for
// everyone else who reads that path, the same as deleting it: their jobs
// and links find nothing. core.zones:shared-delete denies the delete; this
// denies the move. A single file (it has an extension) and folders in
// scratch or temp stay with the zone table.
func sharedMoveAwayRule() Rule {
	return Rule{ID: "core.zones:shared-move-away", Mode: Deny, Tools: shellTools,
		Desc: "Moving a whole folder away from its place on shared storage (mv /gpfs/proj/shared/era5 elsewhere): for everyone who reads that path it is gone, as if deleted",
		Match: func(e *Env) string {
			for _, tc := range e.Touches() {
				if tc.Effect != callfacts.PathDelete || !outsideZone(tc.Zone) || !strings.HasPrefix(tc.Via, "mv ") {
					continue
				}
				if !onSharedStorage(tc.Path) || path.Ext(tc.Path) != "" || ownScratch(tc.Path) {
					continue
				}
				return "mv takes " + tc.Path + " away from where others on shared storage find it"
			}
			return ""
		},
		Catch: []string{"mv /gpfs/proj/shared/era5 /lustre/scratch/dev/era5_old", "sudo mv /data/cohort-2021/bams /tmp/x", "mv /mnt/nas/team/archive ~/archive-copy", "mv /projects/lab42/refs /projects/lab42/refs.old"},
		Allow: []string{"mv /lustre/scratch/dev/run1 /lustre/scratch/dev/run1.old", "mv /shared/lab/me/notes.txt /shared/lab/me/notes.md", "mv ./data/old ./data/older", "mv /tmp/shared/x /tmp/y"}}
}

// ownScratch: p lies in a scratch, temp or cache folder, which its owner clears.
func ownScratch(p string) bool {
	for _, part := range strings.Split(p, "/") {
		switch strings.ToLower(part) {
		case "scratch", "tmp", "temp", "cache":
			return true
		}
	}
	return false
}
