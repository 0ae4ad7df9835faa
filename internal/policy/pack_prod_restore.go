package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// A restore told to replace what is there (click-odoo-restoredb --force
// acme_prod, gwcmd.sh --restore FILE -y on a production gateway,
// a restore tool's --drop or --clean) puts an old copy over the live
// one: whatever production wrote since the backup is gone, as by a
// delete. Where the line names production (the database, the host a
// remote shell runs it on, a --site or --host) it is denied; a restore
// that merges (no replacing switch) asks through the other rules, and a
// restore into a dev or local target is the developer's own.

// restoreReplaceFlags say a restore replaces the target. -y/--yes counts
// only for a program's --restore mode (the whole gateway or system
// restored, the confirmation skipped).
var restoreReplaceFlags = map[string]bool{"--force": true, "-f": false, "--drop": true, "--clean": true, "--replace": true, "--drop-existing": true, "--force-restore": true}

// restoreReplaces: c restores and replaces; the restore word it was read from.
func restoreReplaces(c *Cmd) string {
	name := strings.ToLower(c.Name)
	mode := ""
	switch {
	case strings.Contains(name, "restore"):
		mode = c.Name
	case c.Has("--restore", "-restore", "--restore-backup"):
		mode = "--restore"
	default:
		for _, p := range c.Pos[:min(2, len(c.Pos))] {
			if l := strings.ToLower(p); l == "restore" || l == "restoredb" || strings.HasSuffix(l, ":restore") {
				mode = p
			}
		}
	}
	if mode == "" {
		return ""
	}
	for _, a := range c.Args {
		k, _, _ := strings.Cut(a, "=")
		if restoreReplaceFlags[k] || mode == "--restore" && (k == "-y" || k == "--yes") {
			return mode + " " + k
		}
	}
	return ""
}

func prodRestoreRule() Rule {
	return Rule{
		ID: "external.systems:prod-restore-replace", Mode: Deny, Tools: shellTools, On: On(0).OrText("restore", "Restore", "RESTORE"),
		Desc: "A restore told to replace the target (--force, --drop, --clean, a --restore mode confirmed with -y) where the line names production — the database, the site, or the host a remote shell runs it on: an old copy over the live data, what was written since is gone",
		Match: func(e *Env) string {
			if !mayNameProd(e.F.Command) {
				return ""
			}
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				how := restoreReplaces(c)
				if how == "" || onlyHelp(c) || e.dryRun(c) {
					continue
				}
				where := ""
				for _, a := range c.Args {
					if prodWord.MatchString(a) && !restoreSourceFile(a) {
						where = a // acme_prod, --site=shop.prod.example.com (a dump file's name is the source, not the target)
						break
					}
				}
				if where == "" && len(c.Wrappers) > 0 {
					where = prodSSHHost(e)
				}
				if where != "" && !devTargetWord(where) {
					return c.Name + " (" + how + ") replaces " + where + " with a backup: what production wrote since is gone: " + c.String()
				}
			}
			return ""
		},
		Catch: []string{"click-odoo-restoredb --force shop_prod backups/shop.zip", "ssh ops@scada-gw-prod2 'sudo /opt/ignition/gwcmd.sh --restore /tmp/gw.gwbk -y'",
			"mongorestore --drop --uri mongodb://mongo.prod.acme.io/app dump/", "pg_restore --clean -d orders_production backups/orders.dump"},
		Allow: []string{"click-odoo-restoredb --force shop_dev backups/shop_prod.zip", "click-odoo-restoredb shop_prod_copy backups/shop.zip", "ssh ops@scada-gw-prod2 'gwcmd.sh --help'",
			"restic restore latest --target /tmp/restore-prod", "pg_restore --clean -d shop_dev backups/shop_prod.dump"},
	}
}

// devTargetWord: a target named for the developer's own copy (a
// restored copy of production under a dev or copy name).
func devTargetWord(s string) bool {
	l := strings.ToLower(s)
	for _, w := range strings.FieldsFunc(l, func(r rune) bool { return !(r >= 'a' && r <= 'z') }) {
		if w == "dev" || w == "local" || w == "copy" || w == "test" || w == "sandbox" || w == "scratch" {
			return true
		}
	}
	return false
}

// prodHostGlobDeleteRule: files deleted by a wildcard on a production
// host through a remote shell (ssh pi-admin@pisrv-prod01 'del /q
// E:\PI\arc\*.arc', ssh db-prod 'rm /data/exports/*.parquet'): every file
// the pattern matches there, data the line cannot list. A single file
// named asks (prod-host-change); temp, cache and log files are routine.
func prodHostGlobDeleteRule() Rule {
	return Rule{
		ID: "external.systems:prod-host-glob-delete", Mode: Deny, Tools: shellTools, Cmds: append([]string{"ssh", "autossh", "mosh"}, callfacts.RemoteShellTools()...),
		Desc: "Files deleted by a wildcard (rm /data/*.csv, del /q E:\\arc\\*.arc) on a host named for production through a remote shell: all the data the pattern matches there; temp, cache and log files stay with prod-host-change",
		Match: func(e *Env) string {
			for host, c := range e.prodHostRuns() {
				if !globDeleteProgs[strings.ToLower(c.Name)] {
					continue
				}
				for _, a := range c.Args {
					if strings.HasPrefix(a, "-") || len(a) == 2 && a[0] == '/' {
						continue // an option (-f, /q)
					}
					if strings.ContainsAny(a, "*?") && !routineJunkPath(a) {
						return c.Name + " deletes every file " + a + " matches on " + host + ", a production host: " + c.String()
					}
				}
			}
			return ""
		},
		Catch: []string{"ssh ops@hist-prod-02 'del /q D:\\Historian\\Archive\\*.dat'", "ssh db-prod-1 'rm /var/lib/exports/*.parquet'", "tsh ssh root@files-prod 'rm -f /srv/uploads/2023-*'"},
		Allow: []string{"ssh db-prod-1 'rm /tmp/*.csv'", "ssh web-prod-01 'rm -f /var/log/app/*.gz'", "ssh db-staging 'rm /var/lib/exports/*.parquet'", "ssh db-prod-1 'ls /var/lib/exports/*.parquet'"},
	}
}

var globDeleteProgs = map[string]bool{"rm": true, "del": true, "erase": true, "remove-item": true, "unlink": true}

// routineJunkPath: temp, cache, log or build-output files.
func routineJunkPath(p string) bool {
	l := strings.ToLower(strings.ReplaceAll(p, `\`, "/"))
	for _, w := range []string{"/tmp/", "tmp/", "temp/", "/cache", "cache/", "/log/", "/logs/", ".log", ".gz", ".tmp", ".bak", "/var/log", "/.cache"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// restoreSourceFile: an argument naming a file (a path, a dump's name
// with an extension): the backup restored, not the target.
func restoreSourceFile(a string) bool {
	_, v, ok := strings.Cut(a, "=")
	if !ok {
		v = a
	}
	if strings.Contains(v, "://") {
		return false // mongodb://mongo.prod…/app: where it restores to
	}
	if strings.ContainsAny(v, "/\\~") {
		return true
	}
	ext := v[strings.LastIndexByte(v, '.')+1:]
	return strings.Contains(v, ".") && len(ext) <= 6 && strings.Trim(strings.ToLower(ext), "abcdefghijklmnopqrstuvwxyz0123456789") == "" && !strings.Contains(v, ".prod.") && !strings.HasSuffix(strings.ToLower(v), ".prod")
}
