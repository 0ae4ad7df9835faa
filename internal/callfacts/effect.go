package callfacts

import (
	"slices"
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

// sqlWrite matches statements that change a database: SQL, and the
// document stores' and key-value stores' own calls.
var sqlWrite = lazyre.New(`(?i)\b(insert|update|delete|drop|create|alter|replace|truncate|vacuum|attach|pragma\s+\w+\s*=)\b|\.(import|restore)\b|` +
	`\b(deleteMany|deleteOne|insertOne|insertMany|updateOne|updateMany|replaceOne|bulkWrite|findOneAndDelete|dropDatabase|renameCollection|flushall|flushdb)\b`)

// effectOf is what c does and why, from its program, options and
// arguments; commands it runs (a wrapper's, a payload's) have their own.
// One table lookup decides for the programs the tables name; the rest
// change something only by running code the line does not show.
func effectOf(c *Cmd) (Effect, string) {
	if c.AsksHelp() {
		return EffectNone, "" // help.go
	}
	kind := progKinds()[c.Name] // which of the tables below name the program
	if kind&kindWords != 0 {
		if why := c.DisablesSecurity(); why != "" {
			return EffectWrite, why
		}
		switch c.RemoteAction() {
		case "publish", "visibility", "upload", "notify", "change", "ship", "grant":
			return EffectWrite, c.Name + " publishes or makes public"
		case "unprotect":
			return EffectWrite, c.Name + " switches off a deletion protection"
		case "destroy":
			return EffectDelete, c.Name + " deletes outside this machine"
		}
		if a := c.HostAction(); a != nil {
			return a.Effect, c.Name + " " + a.What // hostacts.txt
		}
	}
	if kind&kindAdmin != 0 {
		if a := c.AdminAction(); a != nil && a.Effect != EffectNone {
			return a.Effect, c.Name + " " + a.Kind + " (admin.txt)" // a server's, device's or robot's state
		}
	}
	if kind&kindWinAdmin != 0 {
		switch k := c.WinAdmin(); {
		case k == "deny:down":
			return EffectDelete, c.Name + " deletes a service (winadmin.txt)"
		case strings.HasPrefix(k, "ask:") || strings.HasPrefix(k, "deny:"):
			return EffectWrite, c.Name + " " + k + " (winadmin.txt)" // the registry, a service, accounts, ACLs (win14)
		}
	}
	if kind&kindChain != 0 {
		if tx := c.ChainTx(); tx != nil {
			if tx.Kind == "final" {
				return EffectDelete, c.Name + " sends a transaction that cannot be undone (" + tx.Kind + ")"
			}
			return EffectWrite, c.Name + " signs and sends a transaction (" + tx.Kind + ")"
		}
	}
	if kind&kindDowngrade != 0 {
		if lv, why := c.Downgrade(); lv == "deny" {
			return EffectWrite, why // the machine's trust store, proxy or antivirus changed
		}
	}
	if kind&kindCloud != 0 {
		if e, why := cloudEffect(c); e != EffectNone {
			return e, why // an operation's verb (cloudops.txt): stop-instances changes, revoke-… destroys
		}
	}
	if s := c.scriptSubCmd(); s != nil || c.NamedVerb != "" { // read once for both verbs
		if v := c.scriptVerbOf(s, true); v != "" {
			return EffectDelete, c.Name + " " + v + " (a script's subcommand, read as an unknown program's) removes something"
		} else if v := c.scriptVerbOf(s, false); v != "" {
			return EffectWrite, c.Name + " " + v + " (a script's subcommand, read as an unknown program's) changes something elsewhere"
		}
	}
	if kind&kindRule != 0 && !c.OnlyReports() {
		if e, why := effectRules()[c.Name](c); e != EffectNone {
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
	switch c.PSRemoteCmdlet() { // pscmdlets.txt
	case "destroy":
		return EffectDelete, c.Name + " removes something a remote module administers"
	case "change":
		return EffectWrite, c.Name + " changes something a remote module administers"
	}
	if kind&kindRule == 0 {
		if v, _ := c.FileEditRemove(); v != "" {
			return EffectWrite, c.Name + " " + v + " edits the files it is given (verbs.txt edits)"
		}
		// the script's subcommand was read above (scriptVerb): what is
		// left of UnknownDestroy and UnknownChange
		if v := c.unknownDestroyWord(); v != "" {
			return EffectDelete, c.Name + " " + v + " (a program warden has no table for) removes something"
		}
		if v := c.unknownChangeWord(); v != "" {
			return EffectWrite, c.Name + " " + v + " (a program warden has no table for) changes something elsewhere"
		}
	}
	if v := c.ServerAction(); v != "" {
		return EffectWrite, c.Name + " " + v + " changes another host's server"
	}
	return EffectNone, ""
}

// progKind says which of effectOf's tables name a program: effectOf
// asked each table in turn, seven map lookups for every command, most
// of them in no table; one lookup of this record answers them all.
type progKind uint8

const (
	kindWords     progKind = 1 << iota // wordTools: hostsec, remote and host action words
	kindAdmin                          // adminTab: admin.txt
	kindWinAdmin                       // winAdminNames: winadmin.txt
	kindChain                          // chainTools: chain.txt
	kindDowngrade                      // downgrades: downgrade.txt's commands
	kindCloud                          // IsCloudCLI: cloudops.txt
	kindRule                           // effectRules
)

// progKinds is built from the tables themselves, once: they do not
// change after they are built.
var progKinds = sync.OnceValue(func() map[string]progKind {
	m := map[string]progKind{}
	for n, ok := range wordTools() {
		if ok {
			m[n] |= kindWords
		}
	}
	for n, p := range adminTab().progs {
		if p != nil {
			m[n] |= kindAdmin
		}
	}
	for n, ok := range winAdminNames() {
		if ok {
			m[n] |= kindWinAdmin
		}
	}
	for n, ok := range chainTools() {
		if ok {
			m[n] |= kindChain
		}
	}
	for n, d := range downgrades().cmds {
		if d != nil {
			m[n] |= kindDowngrade
		}
	}
	for n, st := range cloudTab().style {
		if st != "" {
			m[n] |= kindCloud
		}
	}
	for n, r := range effectRules() {
		if r != nil {
			m[n] |= kindRule
		}
	}
	return m
})

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
var effectRules = sync.OnceValue(buildEffectRules)

func buildEffectRules() map[string]effectRule {
	m := map[string]effectRule{}
	// in the families' order, not the map's: a program in two families
	// (systemctl: power and subcommand verbs) gets the later one's rule
	// on every run, so systemctl status reads and systemctl stop changes
	fams := families()
	for f := famFormat; f <= famSnapshot; f++ {
		for _, n := range fams[f] {
			m[n] = familyRule(f)
		}
	}
	for name, s := range toolTable() {
		switch {
		case s.changes != EffectNone:
			m[name] = always(s.changes)
		case s.args == OpDelete:
			m[name] = always(EffectDelete)
		case s.args == OpWrite:
			m[name] = always(EffectWrite)
		case s.uninstall != nil:
			m[name] = packageEffect
		case s.subs != nil:
			m[name] = subcommandEffect
		case s.inplace != nil:
			m[name] = inPlaceEffect
		}
	}
	for name, s := range toolTable() {
		if s.out != nil || s.into != nil {
			m[name] = outputEffect(m[name]) // 7z x -o/dir writes; 7z l does not
		}
	}
	for name, s := range toolTable() {
		if s.empties != nil {
			m[name] = emptyEffect(m[name]) // vite build --outDir D --emptyOutDir deletes D's contents
		}
	}
	m["find"] = findEffect
	m["curl"], m["wget"] = downloadEffect, downloadEffect
	m["ssh"] = sshEffect
	m["crontab"], m["at"], m["batch"] = scheduleEffect, scheduleEffect, scheduleEffect
	m["scrontab"] = scheduleEffect // Slurm's crontab: jobs the cluster runs on a schedule
	m["warden"], m["pace-maker"] = wardenEffect, wardenEffect
	// reg add/delete/import, schtasks /create|/delete|/change: the
	// registry and the scheduled tasks changed (query, export: read)
	m["reg"], m["reg.exe"] = windowsEffect, windowsEffect
	m["schtasks"], m["schtasks.exe"] = windowsEffect, windowsEffect
	// ip OBJECT VERB: routes, links and addresses changed (ip link set
	// eth0 down, ip route del default); show/list read
	m["ip"] = func(c *Cmd) (Effect, string) {
		for _, p := range c.Pos[min(1, len(c.Pos)):] {
			switch p {
			case "set", "add", "del", "delete", "flush", "replace", "change", "append":
				return EffectWrite, "ip " + strings.Join(c.Pos, " ") + " changes the network"
			}
		}
		return EffectNone, ""
	}
	return m
}

// outputEffect is a write when c names an output by its options
// (tools.txt out= and into=), else what rule (if any) says.
func outputEffect(rule effectRule) effectRule {
	return func(c *Cmd) (Effect, string) {
		if rule != nil {
			if e, why := rule(c); e != EffectNone {
				return e, why
			}
		}
		if files, dirs := c.tool().outputs(c); len(files)+len(dirs) > 0 {
			return EffectWrite, c.Name + " writes its output"
		}
		return EffectNone, ""
	}
}

// always is the rule of a program that changes files whatever its
// arguments.
func always(e Effect) effectRule {
	return func(c *Cmd) (Effect, string) { return e, c.Name }
}

// packageEffect: a package manager removing packages deletes them;
// its other changing subcommands write.
func packageEffect(c *Cmd) (Effect, string) {
	if c.PackageRemoval() {
		return EffectDelete, c.Name + " removes packages"
	}
	return subcommandEffect(c)
}

func subcommandEffect(c *Cmd) (Effect, string) {
	if sub := c.Sub(0); c.tool().subs[sub] && !(c.Name == "git" && gitLists(c)) {
		return EffectWrite, c.Name + " " + sub
	}
	return EffectNone, ""
}

func inPlaceEffect(c *Cmd) (Effect, string) {
	for _, f := range c.tool().inplace {
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
	if c.Has("-fprint", "-fprint0", "-fprintf", "-fls") {
		return EffectWrite, "find -fprint writes a file" // tools.txt: out=
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
	if what := c.SDKDestroy(); what != "" {
		return EffectDelete, c.Name + " code that deletes " + what + " through its SDK"
	}
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
// --dry_run (bq), --no-act, --pretend (artisan, emerge), --noop (puppet), and each program's own in tools.txt: rsync -n, apt-get -s):
// such forms change nothing.
func (c *Cmd) DryRun() bool {
	if v, ok := c.dry.get(c); ok {
		return v
	}
	v := c.dryRun()
	c.dry.set(c, v)
	return v
}

// dryRun is DryRun read afresh.
func (c *Cmd) dryRun() bool {
	if c.hasEnabled("--dry-run", "--dryrun", "--dry_run", "--no-act", "--simulate", "--just-print", "--what-if", "--check", "--pretend", "--noop") || c.planSwitch() || previewForm(c) {
		return true
	}
	s := c.tool()
	if s.acts != nil && c.previewsByDefault(s) {
		return true // gh-ost without --execute, kops update cluster without --yes (tools.txt acts=)
	}
	dry := s.dry
	return c.Has(dry...) || c.hasValued(dry) || slashSwitch(c, dry) // rsync -n, apt-get -s, mkfs.xfs -N, goreleaser --skip=publish, robocopy /L (tools.txt)
}

// planSwitch: c is given --plan as a switch (bare, or =true), the last
// one deciding: a plan only shown. An option that takes a value is no
// dry run: avn service update --plan business-8 moves the service to
// that plan, pulumi up --plan plan.json applies the plan saved.
func (c *Cmd) planSwitch() bool {
	on := false
	for i, a := range c.Args {
		if a == "--" {
			break
		}
		name, val, eq := strings.Cut(a, "=")
		if name != "--plan" || i > 0 && c.tool().globals[c.Args[i-1]] {
			continue
		}
		switch v := strings.ToLower(strings.Trim(val, `"'`)); {
		case eq:
			on = v == "true" || v == "1" || v == "yes"
		default:
			on = i+1 == len(c.Args) || strings.HasPrefix(c.Args[i+1], "-")
		}
	}
	return on
}

// previewsByDefault: c's program only prints what it would do unless an
// acting option is on the line (tools.txt acts=: gh-ost --execute, wal-g
// delete --confirm, kops update cluster --yes, gitlab-rake
// gitlab:cleanup:* DRY_RUN=false), and c's subcommand is one that
// default covers (actsin=; none listed: every one).
func (c *Cmd) previewsByDefault(s *toolSpec) bool {
	if len(s.actsIn) > 0 && !c.actsInSub(s.actsIn) {
		return false
	}
	for _, o := range s.acts {
		if c.Has(o) || c.hasValued([]string{o}) {
			return false
		}
		k, v, kv := strings.Cut(o, "=")
		for _, a := range c.Args {
			if a == o || strings.HasPrefix(a, o+"=") && !previewOff(a[len(o)+1:]) && !kv {
				return false // --execute=true, -y
			}
			if kv && !strings.HasPrefix(a, "-") && strings.EqualFold(a, k+"="+v) {
				return false // DRY_RUN=false: a rake task's argument
			}
		}
	}
	return true
}

// actsInSub: one of c's first three positionals is a subcommand of r
// (duply PROFILE purge: the profile comes first), a two-word one
// written SUB:SUB (create:iamserviceaccount), or starts with an x*
// prefix (gitlab:cleanup:*).
func (c *Cmd) actsInSub(r []string) bool {
	for _, w := range r {
		p, prefix := strings.CutSuffix(strings.ToLower(w), "*")
		if !prefix && strings.Contains(p, ":") {
			if c.subIn([]string{w}) {
				return true
			}
			continue
		}
		for i, a := range c.Pos {
			if i > 2 {
				break
			}
			if a = strings.ToLower(a); a == p || prefix && strings.HasPrefix(a, p) {
				return true
			}
		}
	}
	return false
}

// slashSwitch reports whether one of opts that is a Windows switch (/L)
// is among c's arguments, in any case: Windows' tools read /l as /L.
func slashSwitch(c *Cmd, opts []string) bool {
	for _, o := range opts {
		if strings.HasPrefix(o, "/") && slices.ContainsFunc(c.Args, func(a string) bool { return strings.EqualFold(a, o) }) {
			return true
		}
	}
	return false
}

// hasValued reports whether c is given one of opts written OPT=VALUE
// with that value: --skip=publish matches --skip=publish,announce and
// --skip publish, not --skip=validate. Options without a value are
// left to Has.
func (c *Cmd) hasValued(opts []string) bool {
	for _, o := range opts {
		name, want, ok := strings.Cut(o, "=")
		if !ok {
			continue
		}
		for i, a := range c.Args {
			v := ""
			switch {
			case strings.HasPrefix(a, name+"="):
				v = a[len(name)+1:]
			case a == name && i+1 < len(c.Args):
				v = c.Args[i+1]
			default:
				continue
			}
			for _, x := range strings.Split(v, ",") {
				if x == want {
					return true
				}
			}
		}
	}
	return false
}

// OnlyReports reports whether c only prints: a dry run, or one of its
// program's inspecting subcommands or options (tools.txt reports=:
// cryptsetup luksDump, zfs list, mdadm --detail). A destroying program's
// inspector is the everyday look-alike of its destroying form.
func (c *Cmd) OnlyReports() bool {
	if c.DryRun() {
		return true
	}
	return c.ReportsBySub()
}

// ReportsBySub is OnlyReports less the dry run: c's subcommand or option
// only reports (tools.txt reports=). A caller that has DryRun cached
// (policy's Env.dryRun) asks this for the rest.
func (c *Cmd) ReportsBySub() bool { return c.subIn(c.tool().reports) }

// OnlyKeeps reports whether c only adds a restore point: one of its
// program's subcommands or options that take nothing away (tools.txt
// keeps=: zfs snapshot, btrfs subvolume snapshot, lvcreate -s).
func (c *Cmd) OnlyKeeps() bool { return c.subIn(c.tool().keeps) }

// subIn reports whether c's subcommand (or one of its options) is among
// r: a word, a two-word subcommand written SUB:SUB (btrfs subvolume:list),
// or an option.
func (c *Cmd) subIn(r []string) bool {
	if len(r) == 0 {
		return false
	}
	if c.Has(r...) {
		return true
	}
	if len(c.Pos) == 1 && slices.ContainsFunc(r, func(w string) bool { return strings.EqualFold(w, c.Pos[0]+":") }) {
		return true // SUB: the subcommand alone (ceph health; ceph health mute changes)
	}
	if len(c.Pos) > 1 {
		two := c.Pos[0] + ":" + c.Pos[1]
		if slices.ContainsFunc(r, func(w string) bool { return strings.EqualFold(w, two) }) {
			return true
		}
	}
	words := c.Pos
	if len(words) > 1 && strings.HasPrefix(words[0], "/dev/") {
		words = words[1:] // parted /dev/sda print: the device first, then its commands, each a report
	} else if len(words) > 1 {
		words = words[:1]
	}
	reports := 0
	for _, p := range words {
		if len(words) > 1 && isDigits(p) {
			continue // parted /dev/sda print 1: a partition number, not a command
		}
		if !slices.ContainsFunc(r, func(w string) bool { return strings.EqualFold(w, p) }) {
			return false
		}
		reports++
	}
	return reports > 0
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

// windowsEffect: reg and schtasks verbs that change the registry or the
// scheduled tasks.
func windowsEffect(c *Cmd) (Effect, string) {
	for _, a := range c.Args {
		switch strings.ToLower(a) {
		case "add", "delete", "import", "restore", "load", "unload", "copy", "/create", "/delete", "/change", "-create", "-delete", "-change":
			return EffectWrite, c.Name + " " + a + " changes the registry or the scheduled tasks"
		}
	}
	return EffectNone, ""
}

// isDigits reports whether s is a non-empty run of decimal digits.
func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
