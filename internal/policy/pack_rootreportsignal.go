package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// A program warden has no table for, run as root, whose own name or
// options say unambiguously that it only reports: koha-list,
// ipa-healthcheck, sg_logs, bls (a lister: b+ls), or an option that asks
// for a status, a listing or a configuration test (koha-zebra --status,
// bacula-dir -t -c …). As root it reads what only root may read; the path
// and secret rules still judge what it reads. It is not a read when any
// word of its name or arguments is a change or destroy verb (x-clean,
// x --reset), when it writes an output (-o, --output, --save), when it
// runs a shell or an interpreter, or when it has no such signal at all:
// sudo still asks for those.

// reportNameParts are the words of a program name that say it prints
// (koha-list, ipa-healthcheck, sg_logs, zfs-stats).
var reportNameParts = map[string]bool{"list": true, "ls": true, "show": true, "info": true, "status": true, "search": true,
	"inspect": true, "logs": true, "log": true, "stat": true, "stats": true, "query": true, "report": true, "health": true,
	"healthcheck": true, "check": true, "checkconf": true, "configtest": true, "validate": true, "lint": true,
	"describe": true, "display": true, "whoami": true, "verify": true}

// reportOptions are the options (their first word) that ask a program
// only to report: --status, --list-all, --show-config, --check-config,
// --test-config, --configtest.
// Not --show or --info: they also go with an act (losetup -fP --show
// /dev/sda attaches, then prints the loop device).
var reportOptions = map[string]bool{"status": true, "list": true, "check": true, "test": true,
	"health": true, "verify": true, "validate": true, "configtest": true, "checkconfig": true, "testconfig": true}

// writeOptions write an output or act despite a report option.
var writeOptions = map[string]bool{"o": true, "w": true, "output": true, "out": true, "write": true, "save": true, "outfile": true,
	"export": true, "import": true, "apply": true, "load": true, "yes": true, "y": true, "force": true, "fix": true, "repair": true,
	"commit": true, "execute": true, "exec": true, "run": true, "e": true, "command": true, "cmd": true, "eval": true}

// rootReportSignal: what sudo (or doas) runs is a program warden does
// not know whose name or options say it only reports.
func rootReportSignal(e *Env, c *Cmd) bool {
	if c.Name != "sudo" && c.Name != "doas" {
		return false
	}
	in := innerCmd(e, c)
	if in == nil || in.Payload != "" || in.Effect != callfacts.EffectNone || callfacts.IsShell(in.Name) || callfacts.IsInterpreter(in.Name) ||
		callfacts.Known(in.Name) || len(in.Wrappers) > len(c.Wrappers)+1 || callfacts.UnknownValue(in.Name) {
		return false
	}
	name := strings.ToLower(callfacts.ProgramName(in.Name))
	words := func(s string) []string {
		return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !(r >= 'a' && r <= 'z') })
	}
	signal := false
	for _, w := range words(name) {
		if callfacts.DestroyOrChangeWord(w) {
			return false // x-clean, foo-reset-status
		}
		if reportNameParts[w] {
			signal = true
		}
	}
	if n := len(name); !signal && n >= 3 && n <= 4 && strings.HasSuffix(name, "ls") && strings.Trim(name, "abcdefghijklmnopqrstuvwxyz") == "" {
		signal = true // bls, zls: a letter or two and ls, a lister of some store (Bacula's bls)
	}
	for _, a := range in.Args {
		if strings.ContainsAny(a, "$`") {
			return false
		}
		for _, w := range rootSecretWords {
			if strings.Contains(strings.ToLower(a), w) {
				return false // sudo x-show --field password: a secret read, not a report
			}
		}
		for _, w := range words(a) {
			if callfacts.DestroyOrChangeWord(w) {
				return false // sudo x --status --reset, sudo x status restart
			}
		}
		if !strings.HasPrefix(a, "-") || a == "-" || a == "--" {
			continue
		}
		o := strings.ToLower(strings.TrimLeft(a, "-"))
		o, _, _ = strings.Cut(o, "=")
		if writeOptions[o] {
			return false // -o report.txt, --save, --yes
		}
		first, _, _ := strings.Cut(o, "-")
		if strings.HasPrefix(a, "--") && (reportOptions[o] || reportOptions[first]) {
			signal = true
		}
		// -t as a daemon's configuration test (nginx -t, bacula-dir -t -c
		// conf): alone, or followed by another option, never a value
		if a == "-t" && configTestOnly(in) {
			signal = true
		}
	}
	return signal
}

// configTestOnly: in's arguments are -t and at most a configuration
// file or directory given to -c, -f, -C or --config (bacula-dir -t -c
// /etc/bacula/bacula-dir.conf, nginx -t): a daemon's configuration
// test. Not xmlstarlet sel -t -v …, whose -t starts a template.
func configTestOnly(in *Cmd) bool {
	for i := 0; i < len(in.Args); i++ {
		switch a := in.Args[i]; {
		case a == "-t":
		case (a == "-c" || a == "-f" || a == "-C" || a == "--config") && i+1 < len(in.Args) && !strings.HasPrefix(in.Args[i+1], "-"):
			i++
		case strings.HasPrefix(a, "--config="):
		default:
			return false
		}
	}
	return true
}

// rootSecretWords in an argument make a read by root a secret's read, left
// to sudo's ask and the secret rules.
var rootSecretWords = []string{"pass", "secret", "token", "private", "credential", "shadow", "key"}

// reportActs: a program named for what it prints is given an option
// that writes or acts (sudo zmprov-status --force, foo-status --apply,
// -o out), or an option naming a secret (-field=token): its name no
// longer says it only reads.
func reportActs(in *Cmd) bool {
	for _, a := range in.Args {
		if !strings.HasPrefix(a, "-") {
			continue
		}
		for _, w := range rootSecretWords {
			if strings.Contains(strings.ToLower(a), w) {
				return true // vault-status -field=token: a secret printed
			}
		}
		o, _, _ := strings.Cut(strings.ToLower(strings.TrimLeft(a, "-")), "=")
		if writeOptions[o] || callfacts.DestroyOrChangeWord(o) {
			return true
		}
	}
	return false
}
