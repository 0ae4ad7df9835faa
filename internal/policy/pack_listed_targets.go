package policy

import (
	"strings"
)

// Deletes and kills whose targets a list picks that the line does not
// show. for f in $(cat stale.txt); do rm -f "$f"; done, xargs rm <
// list.txt, while read f; do shred -u "$f"; done < old.txt, readarray -t
// F < x; rm "${F[@]}": the files deleted are whatever the list file
// holds, which the person approving never sees, so the delete asks (its
// targets are unknown; a lister the line shows, find, fd, git ls-files,
// ls, is judged on what it picks by the finder rules). ps -eo pid= |
// xargs kill -9: a listing of every process, unfiltered, fed to kill
// ends them all, as kill -9 -1 does.

var listDeleters = wordSet("rm", "unlink", "shred", "srm", "trash", "trash-put", "gio", "rmdir", "wipe")

// listReaders print a file's lines as they are.
var listReaders = wordSet("cat", "tac", "head", "tail", "sort", "uniq", "comm", "paste", "shuf")

// pickListers choose the files themselves: what they pick is judged by
// the finder rules.
var pickListers = wordSet("find", "fd", "fdfind", "git", "ls", "locate", "mlocate", "plocate", "rg", "ag", "grep", "du", "stat", "mktemp", "ssh", "docker")

// readsListFile: the line reads a file's lines (cat list, < list).
func readsListFile(e *Env) bool {
	for _, r := range e.F.Redirects {
		if r.Op == "<" && r.Target != "" && !strings.HasPrefix(r.Target, "/dev/") && !strings.HasPrefix(r.Target, "/proc/") {
			return true
		}
	}
	for _, c := range e.F.Cmds("cat", "tac", "head", "tail", "sort", "uniq", "comm", "paste", "shuf") {
		if !listReaders[c.Name] {
			continue
		}
		for _, p := range c.Pos {
			if p != "-" && !strings.HasPrefix(p, "/dev/") && !strings.HasPrefix(p, "/proc/") && !strings.Contains(p, "$") {
				return true
			}
		}
	}
	return false
}

func listedTargetRules() []Rule {
	return []Rule{
		cmdRule("core.destroy:delete-listed", Ask, "Deleting the files a list file names (for f in $(cat stale.txt); do rm \"$f\"; done, xargs rm < list.txt, while read f; do shred -u \"$f\"; done < old.txt): the targets are the file's contents, which the line does not show", []string{"rm", "unlink", "shred", "srm", "trash", "trash-put", "gio", "rmdir", "wipe"},
			func(e *Env, c *Cmd) string {
				if c.Name == "gio" && sub(c) != "trash" && sub(c) != "remove" {
					return ""
				}
				unknown := false
				for _, p := range c.Pos {
					unknown = unknown || strings.Contains(p, "$")
				}
				if !unknown || !readsListFile(e) {
					return ""
				}
				for i := range e.F.Commands {
					if pickListers[e.F.Commands[i].Name] {
						return ""
					}
				}
				return c.Name + " deletes what a list file names, which the line does not show: " + c.String()
			},
			[]string{"for f in $(cat stale_files.txt); do rm -f \"$f\"; done", "xargs rm < list.txt", "while read f; do shred -u \"$f\"; done < old.txt", "cat obsolete.txt | xargs -n1 unlink", "readarray -t F < olds.txt; rm -f \"${F[@]}\"", "rm -rf $(<dirs.txt)"},
			[]string{"rm -f \"$LOGFILE\"", "git ls-files '*.orig' | xargs rm", "find . -name '*.pyc' | xargs rm", "cat list.txt", "while read f; do echo \"$f\"; done < list.txt", "rm -f $(mktemp)"}),
		cmdRule("core.destroy:kill-every-process", Deny, "Killing every process a whole-machine listing prints, unfiltered (ps -eo pid= | xargs kill -9, kill $(ps -A -o pid=)): it ends them all, as kill -9 -1 does", []string{"kill", "xargs"},
			func(e *Env, c *Cmd) string {
				if c.Name == "xargs" && !strings.Contains(" "+strings.Join(c.Args, " ")+" ", " kill ") {
					return ""
				}
				if c.Name == "kill" && !strings.Contains(strings.Join(c.Args, " "), "$") {
					return ""
				}
				whole := false
				for _, p := range e.F.Cmds("ps") {
					if p.Has("-p", "--pid", "--ppid", "-u", "-U", "--user", "-C", "-G", "-g", "-t", "-s", "--sid", "-q") {
						return ""
					}
					all := p.Has("-e", "-A", "--everyone")
					for _, a := range p.Args {
						if !strings.HasPrefix(a, "-") && strings.Contains(a, "a") && strings.Contains(a, "x") && !strings.ContainsAny(a, "=,") {
							all = true // ps ax, ps aux
						}
						if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && len(a) > 2 && strings.ContainsAny(a, "eA") && !strings.ContainsAny(a, "=") && a != "-eo" && a != "-Ao" {
							all = all || !strings.ContainsAny(a, "pugCGtsq")
						}
						if a == "-eo" || a == "-Ao" || a == "-ef" || a == "-Af" {
							all = true
						}
					}
					whole = whole || all
				}
				if !whole {
					return ""
				}
				for i := range e.F.Commands {
					switch e.F.Commands[i].Name {
					case "grep", "egrep", "fgrep", "rg", "awk", "gawk", "mawk", "sed", "head", "tail", "pgrep", "jq", "perl", "python", "python3":
						return "" // a filter picks some of them (core.destroy:kill-listed)
					}
				}
				return "kill ends every process an unfiltered ps prints, as kill -9 -1 does: " + c.String()
			},
			[]string{"ps -eo pid= | xargs kill -9", "kill -9 $(ps -A -o pid=)", "ps -e -o pid= | xargs -n1 kill", "sudo kill $(ps ax -o pid=)"},
			[]string{"ps -eo pid,comm", "ps -eo pid=,comm= | awk '$2==\"myapp\"{print $1}' | xargs kill", "kill $(ps -o pid= -p $$)", "ps aux | grep '[n]ode server.js' | awk '{print $2}' | xargs kill", "kill $(cat /tmp/app.pid)", "ps -u $USER -o pid= | xargs kill"}),
	}
}
