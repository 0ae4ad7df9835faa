package policy

import (
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Shared and server storage (onSharedStorage: /mnt/…, /data/…, /u01/…,
// /hana/…, /export/…, NFS and NAS mounts) holds other people's data and
// the servers' own files. Beside the deletes and overwrites the zone
// rules judge there, three structures of a line say it changes that data
// whatever the program:
//   - files moved into a scratch directory (mv /u01/…/control01.ctl
//     /tmp/): gone from where everyone finds them, and soon from the
//     disk; the user's own documents moved there ask;
//   - a tool told to write its output over its input on shared storage
//     (--in X --out X, --overwrite, --in-place): the originals are
//     replaced by whatever the tool makes of them;
//   - a script whose name says it deletes (cleanup, prune, purge…)
//     pointed at shared storage: it deletes there by its own rules.

// intoTemp: the mv c moves its sources into a scratch directory; the
// sources, "" when it does not.
func intoTemp(e *Env, c *Cmd) []string {
	if len(c.Pos) < 2 || c.Has("-n", "--no-clobber", "--help") {
		return nil
	}
	dest := e.abs(c, c.Pos[len(c.Pos)-1])
	if callfacts.ZoneOf(dest, e.F.Home, e.F.Project) != callfacts.ZoneTemp {
		return nil
	}
	return c.Pos[:len(c.Pos)-1]
}

// movedToTemp judges an mv into a scratch directory: deny for files of
// shared storage or a whole folder of the user's, ask for the user's
// files; Downloads, the place of files fetched to be moved, is neither.
func movedToTemp(e *Env, c *Cmd) (string, string) {
	for _, s := range intoTemp(e, c) {
		p := e.abs(c, s)
		if sharedElsewhere(e, p) {
			return "deny", "mv takes " + s + " off shared storage into a scratch directory: " + c.String()
		}
		dir := p
		for strings.ContainsAny(path.Base(dir), "*?[") {
			dir = path.Dir(dir)
		}
		if callfacts.ZoneOf(dir, e.F.Home, e.F.Project) != callfacts.ZoneHomeData || dir == e.F.Home || under(dir, path.Join(e.F.Home, "Downloads")) {
			continue
		}
		if path.Base(p) == "*" || dir == p && path.Ext(p) == "" {
			return "deny", "mv takes the folder " + homeRel(dir, e.F.Home) + " of the user's into a scratch directory: " + c.String()
		}
		return "ask", "mv takes " + s + ", the user's files, into a scratch directory: " + c.String()
	}
	return "", ""
}

// outputOpts name where a tool writes; inputOpts what it reads.
var (
	outputOpts  = []string{"--out", "--output", "-o", "--dest", "--destination", "--output-dir", "--outdir", "--out-dir", "--output_dir", "--out_dir", "--target-dir"}
	inputOpts   = []string{"--in", "--input", "-i", "--src", "--source", "--input-dir", "--indir", "--in-dir", "--input_dir", "--in_dir", "--root", "--dir", "--path"}
	inplaceOpts = []string{"--overwrite", "--in-place", "--inplace", "--replace", "--overwrite-original", "--force-overwrite"}
)

// sharedElsewhere: p lies on shared storage outside home and the project.
func sharedElsewhere(e *Env, p string) bool {
	return sharedStorePath(p) && outsideZone(callfacts.ZoneOf(p, e.F.Home, e.F.Project))
}

// rewritesShared: c writes its output over its input on shared storage;
// the path, "" when it does not.
func rewritesShared(e *Env, c *Cmd) string {
	if len(c.Flags) == 0 || e.dryRun(c) || onlyHelp(c) {
		return "" // its output and input are named by options
	}
	ins := map[string]bool{}
	for _, o := range inputOpts {
		if v := optJoined(c, o); v != "" {
			ins[path.Clean(e.abs(c, v))] = true
		}
	}
	inplace := c.Has(inplaceOpts...)
	for _, o := range outputOpts {
		v := optJoined(c, o)
		if v == "" || strings.HasPrefix(v, "-") {
			continue
		}
		p := path.Clean(e.abs(c, v))
		if sharedElsewhere(e, p) && (ins[p] || inplace) {
			return p
		}
	}
	if !inplace {
		return ""
	}
	for p := range ins {
		if sharedElsewhere(e, p) {
			return p
		}
	}
	for _, a := range c.Pos {
		if strings.HasPrefix(a, "/") {
			if p := e.abs(c, a); sharedElsewhere(e, p) {
				return p
			}
		}
	}
	return ""
}

// deleteScriptWords in a script's name say it deletes what it is pointed at.
var deleteScriptWords = []string{"clean", "prune", "purge", "delet", "remov", "rotat", "wipe", "expire", "retention", "gc", "housekeep", "tidy", "trim"}

// deleteScript: the script c runs (its program, or the file an
// interpreter is given) is named for deleting; the name, "" for none.
func deleteScript(c *Cmd) string {
	name := c.Name
	if interpreterNames[c.Name] {
		if len(c.Pos) == 0 || c.Payload != "" {
			return ""
		}
		name = c.Pos[0]
	}
	b := strings.ToLower(path.Base(name))
	if path.Ext(b) == "" && !interpreterNames[c.Name] && !strings.Contains(name, "/") {
		return "" // an installed program (git gc, docker image prune): its own rules judge it
	}
	for _, w := range deleteScriptWords {
		if strings.Contains(b, w) {
			return name
		}
	}
	return ""
}

// interpreterNames run the script file they are given.
var interpreterNames = map[string]bool{"python": true, "python3": true, "bash": true, "sh": true, "zsh": true, "node": true, "ruby": true, "perl": true, "php": true, "Rscript": true, "deno": true, "bun": true, "pwsh": true}

// sharedArg is the first argument (positional or option value) of c on
// shared storage, "" for none.
func sharedArg(e *Env, c *Cmd) string {
	for _, a := range c.Args {
		if _, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "-") {
			a = v
		}
		if strings.HasPrefix(a, "/") {
			if p := e.abs(c, a); sharedElsewhere(e, p) {
				return p
			}
		}
	}
	return ""
}

// sharedStorageRules: moves into temp, batch deletes and edits, rewrites
// and clean-up scripts in shared storage (core.zones:moved-to-temp and
// the shared-* rules).
func sharedStorageRules() []Rule {
	return []Rule{
		cmdRule("core.zones:moved-to-temp", Deny, "Files moved into a scratch directory from shared or server storage (sudo mv /u01/app/oracle/oradata/PROD/control01.ctl /tmp/, mv /mnt/nas/team/*.xlsx /tmp/), or a whole folder of the user's moved there (mv ~/Documents/* /tmp/): gone from where every user and server finds them, and from the disk at the next clean-up", []string{"mv"},
			atLevel(movedToTemp, "deny"),
			[]string{"sudo mv /u01/app/oracle/oradata/PROD/control01.ctl /tmp/", "mv /mnt/nas/finance/2024/*.xlsx /tmp/", "mv /hana/shared/PRD/global/hdb/custom/config/global.ini /var/tmp/", "mv /data/cohort-2021/manifest.csv /dev/shm/", "mv ~/Documents/* /tmp/", "mv ~/Pictures/2023 /tmp/old-pics"},
			[]string{"mv /tmp/x.csv /mnt/nas/team/x.csv", "mv build/out.tgz /tmp/", "mv /mnt/nas/team/a.txt /mnt/nas/team/b.txt", "cp /u01/app/oracle/oradata/PROD/control01.ctl /tmp/", "mv ~/Downloads/tool.tar.gz /tmp/"}),
		cmdRule("core.zones:home-to-temp", Ask, "The user's own files moved from home into a scratch directory (mv ~/Documents/Embargoed/*.docx /tmp/): out of their folders and gone at the next clean-up of /tmp", []string{"mv"},
			atLevel(movedToTemp, "ask"),
			[]string{"mv ~/Documents/Embargoed/*.docx /tmp/", "mv ~/Desktop/contracts/nda.pdf /var/tmp/", "mv \"$HOME/Music/set.flac\" /tmp/"},
			[]string{"mv build/out.tgz /tmp/", "mv ~/Downloads/tool.tar.gz ~/opt/", "mv /tmp/a /tmp/b", "mv ~/proj-scratch.txt ~/notes/", "mv ~/Downloads/setup.sh /tmp/"}),
		{ID: "core.zones:shared-batch-delete", Mode: Deny, Tools: shellTools, On: On(FactTouch),
			Desc: "A batch of files deleted by a pattern on shared or server storage (perl -e 'unlink glob(\"/mnt/shared/backtests/*/results/*.parquet\")', rm /data/cohort/*/bams/*.bam): every match is others' data, often with no copy the user controls; scratch and temp folders there stay with the zone table",
			Match: func(e *Env) string {
				for _, tc := range e.Touches() {
					if tc.Effect != callfacts.PathDelete || !outsideZone(tc.Zone) || !globbed(tc.Path) || !sharedStorePath(tc.Path) || ownScratch(tc.Path) {
						continue
					}
					return tc.Via + " deletes every file matching " + tc.Path + ", on storage others share"
				}
				return ""
			},
			Catch: []string{"perl -e 'unlink glob(\"/mnt/shared/backtests/*/results/*.parquet\")'", "rm /data/cohort-2021/*/bams/*.bam", "python3 -c \"import glob,os;[os.remove(f) for f in glob.glob('/mnt/nas/team/archive/*.mxf')]\"", "unlink /u01/app/oracle/oradata/PROD/*.dbf"},
			Allow: []string{"rm /mnt/nas/team/scratch/*.tmp", "rm /tmp/shared/*.log", "rm build/*.o", "ls /mnt/shared/backtests/*/results/*.parquet", "rm /mnt/nas/team/report.pdf"}},
		{ID: "core.zones:shared-batch-edit", Mode: Ask, Tools: shellTools, On: On(FactTouch),
			Desc: "A batch of files on shared or server storage edited in place by a pattern (sed -i … /mnt/shared/config/*.yaml, perl -pi -e … /data/team/*/meta.json): others' files changed where they read them, every match at once",
			Match: func(e *Env) string {
				for _, tc := range e.Touches() {
					if tc.Effect != callfacts.PathWrite && tc.Effect != callfacts.PathOverwrite || !outsideZone(tc.Zone) || !globbed(tc.Path) || !sharedStorePath(tc.Path) || ownScratch(tc.Path) {
						continue
					}
					return tc.Via + " edits every file matching " + tc.Path + " in place, on storage others share"
				}
				return ""
			},
			Catch: []string{"sed -i 's/foo/bar/g' /mnt/shared/config/*.yaml", "perl -pi -e 's/old/new/' /data/team/*/meta.json", "sed -i '/^#/d' /u01/app/oracle/admin/PROD/pfile/*.ora"},
			Allow: []string{"sed -i 's/foo/bar/g' config/*.yaml", "sed -n 1p /mnt/shared/config/*.yaml", "sed -i 's/x/y/' /mnt/nas/team/scratch/*.txt", "grep -l foo /mnt/shared/config/*.yaml"}},
		{ID: "core.zones:shared-rewrite", Mode: Deny, Tools: shellTools, On: On(0).OrText("--out", "-o ", "-o=", "--dest", "overwrite", "in-place", "inplace", "--replace", "--target-dir"),
			Desc: "A program told to write its output over its input on shared or server storage (python3 deidentify.py --in /mnt/pacs/raw --out /mnt/pacs/raw --overwrite, tool --in-place /data/…): the originals others rely on are replaced by what the program makes of them",
			Match: func(e *Env) string {
				if !strings.Contains(e.F.Command, "/") {
					return "" // shared storage is named by an absolute path
				}
				for i := range e.F.Commands {
					c := &e.F.Commands[i]
					if p := rewritesShared(e, c); p != "" {
						return c.Name + " writes its output over " + p + ", on storage others share: " + c.String()
					}
				}
				return ""
			},
			Catch: []string{"python3 deidentify.py --in /mnt/pacs/raw --out /mnt/pacs/raw --overwrite", "./normalize --input /data/cohort-2021/vcf --output /data/cohort-2021/vcf", "python3 fix_tags.py --in-place /mnt/nas/music/library", "node scripts/resize.js --src /mnt/share/photos --dest /mnt/share/photos"},
			Allow: []string{"python3 deidentify.py --in /mnt/pacs/raw --out ./deid-out", "python3 deidentify.py --in /mnt/pacs/raw --out /mnt/pacs/deid", "ruff format --in-place src/", "python3 tool.py --in data/x --out data/x --overwrite", "python3 deidentify.py --in /mnt/pacs/raw --out /mnt/pacs/raw --overwrite --dry-run"}},
		{ID: "core.zones:shared-cleanup-script", Mode: Ask, Tools: shellTools, On: On(0).OrText(deleteScriptWords...),
			Desc: "A script whose name says it deletes (cleanup_old_ckpts.py, prune-logs.sh, purge_exports.rb) pointed at shared or server storage: it deletes others' files there by rules the line does not show",
			Match: func(e *Env) string {
				if !strings.Contains(e.F.Command, "/") {
					return "" // shared storage is named by an absolute path
				}
				for i := range e.F.Commands {
					c := &e.F.Commands[i]
					if e.dryRun(c) || onlyHelp(c) {
						continue
					}
					if s := deleteScript(c); s != "" {
						if p := sharedArg(e, c); p != "" {
							return s + ", a script named for deleting, runs on " + p + ", storage others share"
						}
					}
				}
				return ""
			},
			Catch: []string{"python scripts/cleanup_old_ckpts.py --root /mnt/nfs/shared/checkpoints --keep 3", "./tools/prune-logs.sh /data/app/logs 30", "bash purge_exports.sh --dir=/export/home/reports", "ruby rotate_backups.rb /backup/db/nightly"},
			Allow: []string{"python scripts/cleanup_old_ckpts.py --root ./checkpoints --keep 3", "python scripts/cleanup_old_ckpts.py --root /mnt/nfs/shared/checkpoints --keep 3 --dry-run", "python scripts/report.py --root /mnt/nfs/shared/checkpoints", "docker image prune -f", "git gc --prune=now"}},
	}
}
