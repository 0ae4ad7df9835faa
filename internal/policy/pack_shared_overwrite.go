package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Shared storage written over. Deletes there are judged by
// core.zones:shared-delete and shared-batch-delete; a file others rely on
// replaced in place (cp over /project/lab/meta/samples.tsv, a > into a
// lab's results, a container image rebuilt with --force in /sw) is a
// change to their data or the software their jobs load: it asks. A new
// file put into a lab's folder (cp into a folder, a job's output made by
// a > redirect) stays allowed, except in a software tree
// (/sw, /software, a modulefiles folder), whose every file is loaded by
// other users' jobs. Scratch and temp folders there are the user's own.

// softwareTree: p lies in a tree of software or module files others load.
func softwareTree(p string) bool {
	rest := strings.TrimPrefix(p, "/")
	if top, _, _ := strings.Cut(rest, "/"); top == "sw" || top == "software" {
		return true
	}
	for { // each segment, read in place: every written path meets this
		d, more, ok := strings.Cut(rest, "/")
		if d == "modulefiles" {
			return true
		}
		if !ok {
			return false
		}
		rest = more
	}
}

// imageBuildOutput is the image file apptainer/singularity build writes
// (its first argument after build), "" for none.
func imageBuildOutput(c *Cmd) string {
	if (c.Name == "apptainer" || c.Name == "singularity") && c.Sub(0) == "build" && len(c.Pos) > 1 {
		return c.Pos[1]
	}
	return ""
}

func sharedOverwriteRule() Rule {
	shared := func(e *Env, p string) bool {
		z := callfacts.ZoneOf(p, e.F.Home, e.F.Project)
		return outsideZone(z) && (sharedStorePath(p) || softwareTree(p)) && !ownScratch(p) && !callfacts.UserScratch(p, e.F.Home)
	}
	return Rule{ID: "core.zones:shared-overwrite", Mode: Ask, Tools: shellTools, On: On(FactTouch, "apptainer", "singularity"),
		Desc: "A file on shared or server storage written over (cp onto /project/lab/meta/samples.tsv, > into a lab's results, apptainer build --force into /sw), or a file put into a software tree others' jobs load (/sw, /software, modulefiles): others' data or software changed where they use it; scratch and temp folders there are the user's",
		Match: func(e *Env) string {
			for _, tc := range e.Touches() {
				redirect := strings.HasPrefix(tc.Via, ">") // a job's output file made by > is most often new
				if (tc.Effect == callfacts.PathOverwrite && !redirect || softwareTree(tc.Path)) && shared(e, tc.Path) {
					return tc.Via + " writes " + tc.Path + ", on storage others share"
				}
			}
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				if out := imageBuildOutput(c); out != "" && !onlyHelp(c) {
					if p := e.abs(c, out); shared(e, p) && (softwareTree(p) || c.Has("--force", "-F")) {
						return c.Name + " build writes " + p + ", on storage others share: " + c.String()
					}
				}
			}
			return ""
		},
		Catch: []string{"cp modulefiles/gcc/13.2.lua /sw/modulefiles/gcc/13.2.lua", "singularity build --force /sw/containers/r-4.4.sif docker://rocker/r-ver:4.4", "cp samples.tsv /project/lab/metadata/samples.tsv", "sort -o /data/cohort-2021/manifest.csv /data/cohort-2021/manifest.csv", "cp -r new-env /software/envs/", "echo 'module load x' > /sw/modulefiles/x/1.0.lua"},
		Allow: []string{"cp results.csv /project/lab/results/", "cp x.tsv /scratch/dev/tmp/x.tsv", "apptainer build ./pytorch.sif docker://pytorch/pytorch", "apptainer exec /sw/containers/pytorch.sif python -V", "cat /project/lab/metadata/samples.tsv", "cp /sw/modulefiles/gcc/13.2.lua ./modulefiles/", "samtools view -b x.sam > /project/lab/bams/x.bam"}}
}

// outsideZone: z is outside home, the project and the system: elsewhere,
// or a shared mount, which the rules about shared storage
// judge as they judged it when it was elsewhere.
func outsideZone(z callfacts.Zone) bool {
	return z == callfacts.ZoneElsewhere || z == callfacts.ZoneShared
}
