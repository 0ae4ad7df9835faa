package callfacts

import (
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/lazyre"
)

// Effect is what one command does to the files and state around it,
// coarsely: enough for a gate that must deny every change (safemode) or
// count edits (mutation tracking) to ask the same facts the policy reads.
type Effect string

// Effects, weakest first.
const (
	// EffectNone: the command reads or prints, as far as the facts show.
	EffectNone Effect = ""
	// EffectWrite: it creates or changes files, or repository, package or
	// database state.
	EffectWrite Effect = "write"
	// EffectDelete: it removes files or moves them away.
	EffectDelete Effect = "delete"
	// EffectStop: it stops processes, services or the machine.
	EffectStop Effect = "stop"
	// EffectRun: it runs code the line does not show (a script file, an
	// interpreter one-liner, a shell fed unknown text), which may change
	// anything.
	EffectRun Effect = "run"
)

// changers change files whatever their arguments (besides the programs
// pathOps already gives a write or delete).
var changers = map[string]Effect{
	"mv": EffectDelete, "cp": EffectWrite, "ln": EffectWrite, "dd": EffectWrite, "install": EffectWrite,
	"patch": EffectWrite, "rsync": EffectWrite, "tar": EffectWrite, "unzip": EffectWrite, "gunzip": EffectWrite,
	"gzip": EffectWrite, "rename": EffectWrite, "mkfifo": EffectWrite,
	"mknod": EffectWrite, "link": EffectWrite, "fallocate": EffectWrite,
	// PowerShell cmdlets met outside PowerShell (names are lowercased).
	"set-content": EffectWrite, "add-content": EffectWrite, "out-file": EffectWrite, "remove-item": EffectDelete,
	"new-item": EffectWrite, "move-item": EffectDelete, "copy-item": EffectWrite, "rename-item": EffectWrite,
}

// changingSub are tools whose subcommand decides whether they change
// repository, package or release state.
var changingSub = map[string]map[string]bool{
	"git": {"add": true, "commit": true, "push": true, "merge": true, "rebase": true, "reset": true,
		"checkout": true, "switch": true, "restore": true, "rm": true, "mv": true, "stash": true,
		"cherry-pick": true, "revert": true, "apply": true, "am": true, "tag": true, "clean": true,
		"pull": true, "init": true, "clone": true, "branch": true, "worktree": true, "submodule": true,
		"update-ref": true, "filter-branch": true, "filter-repo": true, "gc": true, "prune": true, "reflog": true},
	"npm":   {"install": true, "i": true, "add": true, "uninstall": true, "remove": true, "rm": true, "update": true, "publish": true, "unpublish": true, "ci": true, "link": true},
	"pnpm":  {"install": true, "i": true, "add": true, "remove": true, "update": true, "publish": true},
	"yarn":  {"add": true, "remove": true, "install": true, "upgrade": true, "publish": true},
	"pip":   {"install": true, "uninstall": true},
	"pip3":  {"install": true, "uninstall": true},
	"go":    {"get": true, "install": true, "generate": true, "mod": true},
	"cargo": {"add": true, "remove": true, "install": true, "update": true, "publish": true},
	"gh":    {"pr": true, "release": true, "repo": true, "issue": true},
}

// inPlaceFlags make an editor-like tool write its input files.
var inPlaceFlags = map[string][]string{"sed": {"-i", "--in-place"}, "perl": {"-i"}, "ruby": {"-i"}}

// sqlWrite matches statements that change a database: SQL, and the
// document stores' and key-value stores' own calls.
var sqlWrite = lazyre.New(`(?i)\b(insert|update|delete|drop|create|alter|replace|truncate|vacuum|attach|pragma\s+\w+\s*=)\b|\.(import|restore)\b|` +
	`\b(deleteMany|deleteOne|insertOne|insertMany|updateOne|updateMany|replaceOne|bulkWrite|findOneAndDelete|dropDatabase|renameCollection|flushall|flushdb)\b`)

// effectOf is what c does and why, from its program, options and
// arguments; commands it runs (a wrapper's, a payload's) have their own.
// One table lookup decides for the programs the tables name; the rest
// change something only by running code the line does not show.
func effectOf(c *Cmd) (Effect, string) {
	if rule := effectRules()[c.Name]; rule != nil && !c.DryRun() {
		if e, why := rule(c); e != EffectNone {
			return e, why
		}
	}
	switch {
	case c.FeedUnknown:
		return EffectRun, c.Name + " runs text the line does not show, which may change anything"
	case c.Payload != "" && IsInterpreter(c.Name):
		return inlineEffect(c)
	case c.Payload == "" && len(c.Pos) > 0 && c.Pos[0] != "-" && shells[c.Name]:
		return EffectRun, c.Name + " runs a script, which may change anything"
	case c.NameBuilt:
		return wardenEffect(c)
	case strings.HasPrefix(c.Name, "mkfs.") && !c.DryRun():
		return EffectDelete, c.Name + " formats a filesystem" // mkfs.minix and kin, beyond FormatTools
	}
	return EffectNone, ""
}

// EffectWhy says in words what makes c's Effect ("git commit", "find
// -delete"); asked only when a consumer reports it, so the reason's text
// is not built for every command.
func (c *Cmd) EffectWhy() string {
	_, why := effectOf(c)
	return why
}

// effectRule gives a program's effect from its options and arguments.
type effectRule func(c *Cmd) (Effect, string)

// effectRules are the rules of every program the tables name, built on
// first use (most hooks never ask); later tables win over earlier ones.
var effectRules = sync.OnceValue(func() map[string]effectRule {
	m := map[string]effectRule{}
	for f, names := range families() {
		for _, n := range names {
			m[n] = familyRule(f)
		}
	}
	for name, op := range pathOps {
		switch op {
		case OpDelete:
			m[name] = always(EffectDelete)
		case OpWrite:
			m[name] = always(EffectWrite)
		}
	}
	for name, e := range changers {
		m[name] = always(e)
	}
	for name := range changingSub {
		m[name] = subcommandEffect
	}
	for name := range inPlaceFlags {
		m[name] = inPlaceEffect
	}
	m["find"] = findEffect
	m["curl"], m["wget"] = downloadEffect, downloadEffect
	m["ssh"] = sshEffect
	m["crontab"], m["at"], m["batch"] = scheduleEffect, scheduleEffect, scheduleEffect
	m["warden"], m["pace-maker"] = wardenEffect, wardenEffect
	return m
})

// always is the rule of a program that changes files whatever its
// arguments.
func always(e Effect) effectRule {
	return func(c *Cmd) (Effect, string) { return e, c.Name }
}

func subcommandEffect(c *Cmd) (Effect, string) {
	if sub := c.Sub(0); changingSub[c.Name][sub] && !(c.Name == "git" && gitLists(c)) {
		return EffectWrite, c.Name + " " + sub
	}
	return EffectNone, ""
}

func inPlaceEffect(c *Cmd) (Effect, string) {
	for _, f := range inPlaceFlags[c.Name] {
		if c.Has(f) {
			return EffectWrite, c.Name + " " + f + " (edits files in place)"
		}
	}
	return EffectNone, ""
}

func findEffect(c *Cmd) (Effect, string) {
	if c.Has("-delete") {
		return EffectDelete, "find -delete"
	}
	return EffectNone, ""
}

func downloadEffect(c *Cmd) (Effect, string) {
	if downloads(c.Name, c.Args) {
		return EffectWrite, c.Name + " writing a file"
	}
	return EffectNone, ""
}

func sshEffect(c *Cmd) (Effect, string) {
	if c.Stdin != "" {
		return EffectRun, "ssh runs input the line does not show (" + c.Stdin + ") on another host"
	}
	return EffectNone, ""
}

// scheduleEffect: crontab replaces or edits the user's jobs, at and
// batch queue one; listing them (-l) changes nothing.
func scheduleEffect(c *Cmd) (Effect, string) {
	if c.Has("-l") {
		return EffectNone, ""
	}
	return EffectWrite, c.Name + " schedules commands"
}

func wardenEffect(c *Cmd) (Effect, string) {
	if w := c.WardenToggle(); w != "" {
		return EffectWrite, w + " switches warden's guards"
	}
	return EffectNone, ""
}

// inlineEffect is what an interpreter one-liner does: a delete or a
// write when its library calls say so, nothing for perl -n/-p filters
// (they print; -i was read before), else code that may change anything.
func inlineEffect(c *Cmd) (Effect, string) {
	switch {
	case DeleteCall.MatchString(c.Payload):
		return EffectDelete, c.Name + " code that deletes files"
	case writeCall.MatchString(c.Payload):
		return EffectWrite, c.Name + " code that writes files"
	case c.Name == "perl" && c.Has("-n", "-p"):
		return EffectNone, ""
	}
	return EffectRun, c.Name + " with inline code, which may change files"
}

// gitLists reports whether a git subcommand that can change refs only
// lists them here: git branch, git tag -l, git stash list, git worktree
// list, git reflog (show).
func gitLists(c *Cmd) bool {
	switch c.Sub(0) {
	case "branch":
		return len(c.Pos) == 1 && !c.Has("-d", "-D", "-m", "-M", "-c", "-C", "-f", "--delete", "--move", "--copy", "--force",
			"--set-upstream-to", "-u", "--unset-upstream", "--edit-description")
	case "tag":
		return len(c.Pos) == 1 && !c.Has("-d", "--delete", "-a", "-s", "-f", "-m", "-F", "-u") || c.Has("-l", "--list")
	case "stash":
		return c.Sub(1) == "list" || c.Sub(1) == "show"
	case "worktree":
		return c.Sub(1) == "list"
	case "reflog":
		return c.Sub(1) != "expire" && c.Sub(1) != "delete"
	}
	return false
}

// DryRun reports whether c only says what it would do (--dry-run,
// --no-act, rsync -n, apt-get -s): such forms change nothing.
func (c *Cmd) DryRun() bool {
	if c.Has("--dry-run", "--dryrun", "--no-act", "--simulate", "--just-print", "--what-if", "--check", "--plan") {
		return true
	}
	switch c.Name {
	case "rsync", "rename", "make", "gmake", "gsutil", "prename", "perl-rename", "rclone":
		return c.Has("-n")
	case "apt-get", "apt":
		return c.Has("-s")
	case "wipefs", "mke2fs", "mkfs.ext2", "mkfs.ext3", "mkfs.ext4":
		return c.Has("-n", "--no-act")
	case "mkfs.xfs":
		return c.Has("-N")
	}
	return false
}

// downloads: curl -o/-O/--output, wget unless it writes to stdout.
func downloads(name string, args []string) bool {
	for i, a := range args {
		switch name {
		case "curl":
			if a == "-o" || a == "-O" || a == "--output" || a == "--remote-name" || strings.HasPrefix(a, "--output=") ||
				(strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "oO")) {
				return true
			}
		case "wget":
			if (a == "-O" || a == "--output-document") && i+1 < len(args) && args[i+1] == "-" ||
				a == "--output-document=-" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.HasSuffix(a, "O-") {
				return false
			}
		}
	}
	return name == "wget"
}
