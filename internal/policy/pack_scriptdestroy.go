package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// A project script named for removing (prune_raw.sh, cleanup_scratch.py:
// remoteops.txt script-prune-verb) does what its name says to the
// directory it is given. Given the project's own files that is
// housekeeping; given a system or shared directory, data outside home
// and the project, or a directory only a variable names ("$SCRATCH",
// unknown until it runs), it deletes where the user did not look, so it
// asks. The name is the trigger: a script with a read verb first
// (list_old.sh) or no removing word never fires.

// scriptNameDestroys: p's file name holds a removing word and does not
// start with a read verb.
func scriptNameDestroys(p string) bool {
	b := strings.ToLower(p[strings.LastIndexByte(p, '/')+1:])
	if i := strings.LastIndexByte(b, '.'); i > 0 {
		b = b[:i]
	}
	if scriptReadsByName(p) {
		return false
	}
	verbs := opsList("script-prune-verb")
	for _, w := range wordsOf(b) {
		if verbs[w] {
			return true
		}
	}
	return false
}

// scriptDestroyTarget is the argument of a removing script that points
// outside the project: an absolute or home path in a zone others' or the
// system's data lives in, or a bare variable ("" for none).
func scriptDestroyTarget(e *Env, c *Cmd, args []string) string {
	for _, a := range args {
		_, v, hasV := strings.Cut(a, "=")
		if !hasV {
			v = a
		}
		v = strings.Trim(v, `"'`)
		if v == "" || strings.HasPrefix(v, "-") {
			continue
		}
		if n := varNames(v); len(n) == 1 && (v == "$"+n[0] || v == "${"+n[0]+"}") {
			switch n[0] {
			case "PWD", "TMPDIR", "TMP", "TEMP":
				continue
			}
			return v + " (a directory the line does not show)"
		}
		if !strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "~") {
			continue
		}
		switch callfacts.ZoneOf(e.abs(c, v), e.F.Home, e.F.Project) {
		case callfacts.ZoneSystem, callfacts.ZoneShared, callfacts.ZoneElsewhere, callfacts.ZoneHomeData, callfacts.ZoneHomeConfig, callfacts.ZoneCredentials:
			return v
		}
	}
	return ""
}

func scriptDestroyRule() Rule {
	return Rule{ID: "core.local:script-name-destroy", Mode: Ask, Tools: shellTools, On: On(FactInterp | FactScriptPath), // scriptRuns: a shell or interpreter, a command run by path, PowerShell
		Desc: "A project script named for removing (prune_raw.sh, cleanup_scratch.py; policy/remoteops.txt script-prune-verb) given a directory outside the project (a system or shared path, data elsewhere) or one only a variable names: it deletes where the line does not show",
		Match: func(e *Env) string {
			for s := range e.scriptRuns() {
				if !scriptNameDestroys(s.path) {
					continue
				}
				if t := scriptDestroyTarget(e, s.c, s.args); t != "" {
					return s.path + " is named for removing and is given " + t + ", outside the project: " + s.c.String()
				}
			}
			return ""
		},
		Catch: []string{"./scripts/purge-old-backups.sh /var/backups/db", "bash tools/cleanup_logs.sh --dir /mnt/shared/logs", "python3 ops/expire_uploads.py --path \"$UPLOAD_ROOT\" --days 90", "node scripts/delete-stale.js /opt/app/releases", "./bin/wipe_cache.sh ${CACHE_DIR}", "perl tools/reap_sessions.pl /srv/sessions"},
		Allow: []string{"./scripts/purge-old-backups.sh --dry-run /var/backups/db", "./scripts/cleanup.sh build/", "python3 scripts/cleanup_scratch.py --root ./tmp", "./tools/list_old_raw.sh /srv/msdata/raw", "bash tools/report_usage.sh /srv/data", "./scripts/clean.sh --help", "python3 tools/prune_raw.py --root \"$PWD/out\""}}
}
