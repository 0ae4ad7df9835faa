package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// rootTempTools change only the files they name.
var rootTempTools = map[string]bool{"dd": true, "mkdir": true, "rm": true, "rmdir": true, "touch": true, "truncate": true, "fallocate": true,
	"cp": true, "mv": true, "chmod": true, "chown": true, "tee": true, "ln": true, "install": true, "mktemp": true}

// rootTempWork: a file tool run as root whose every operand is in a
// scratch directory (sudo dd if=/dev/zero of=/tmp/loop.img, sudo rm -rf
// /tmp/build-root, sudo mkdir -p /tmp/mnt): root changes nothing but
// scratch files. dd may read only the kernel's endless sources
// (/dev/zero, /dev/urandom); a disk read as root is not scratch work.
func rootTempWork(e *Env, in *Cmd) bool {
	if !rootTempTools[in.Name] {
		return false
	}
	var ops []string
	if in.Name == "dd" {
		for _, a := range in.Args {
			k, v, ok := strings.Cut(a, "=")
			switch {
			case !ok:
				return false
			case k == "if" && (v == "/dev/zero" || v == "/dev/urandom" || v == "/dev/random"):
			case k == "if" || k == "of":
				ops = append(ops, v)
			}
		}
	} else {
		ops = in.Pos
		switch in.Name {
		case "chmod", "chown":
			if len(ops) > 0 {
				ops = ops[1:] // the mode or the owner
			}
		case "truncate", "fallocate":
			ops = nil
			for i, a := range in.Args {
				if strings.HasPrefix(a, "-") || i > 0 && (in.Args[i-1] == "-s" || in.Args[i-1] == "--size" || in.Args[i-1] == "-l" || in.Args[i-1] == "--length" || in.Args[i-1] == "-o" || in.Args[i-1] == "--offset") {
					continue // an option, or a size
				}
				ops = append(ops, a)
			}
		}
	}
	for _, op := range ops {
		if op == "" || strings.ContainsAny(op, "$`") {
			return false
		}
		if i := strings.LastIndexByte(op, '/'); strings.ContainsAny(op, "*?[") {
			// /tmp/munki-test-*.dmg: a pattern of names, with a fixed part, in a scratch directory
			if i < 0 || strings.ContainsAny(op[:i], "*?[") || strings.Trim(op[i+1:], "*?[]") == "" {
				return false
			}
			op = op[:i+1] + "x"
		}
		if callfacts.ZoneOf(e.abs(in, op), e.F.Home, e.F.Project) != callfacts.ZoneTemp {
			return false
		}
	}
	return len(ops) > 0
}

// gitReadSub are git subcommands that only read the repository: run as
// root (sudo git status in a root-owned checkout) they change nothing.
var gitReadSub = map[string]bool{"status": true, "log": true, "diff": true, "show": true, "rev-parse": true, "ls-files": true,
	"blame": true, "describe": true, "shortlog": true, "ls-tree": true, "cat-file": true, "grep": true, "reflog": true}

// envCommand is the command env runs: its options and VAR=value words
// set aside (env -i PATH=/bin ls: ls).
func envCommand(args []string) []string {
	for i, a := range args {
		if a == "-u" || a == "--unset" || a == "-C" || a == "--chdir" || a == "-S" || a == "--split-string" {
			return nil // a value follows, or env splits its own line: judged as written
		}
		if !strings.HasPrefix(a, "-") && !strings.Contains(a, "=") {
			return args[i:]
		}
	}
	return nil
}
