package callfacts

import (
	_ "embed"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// verbsText is the destroy verbs and options of programs warden has no
// table for, and the local programs that are not such (verbs.txt).
//
//go:embed verbs.txt
var verbsText string

type verbTable struct {
	verbs, changes, options, reads, local map[string]bool
	// edits, editsInOut: programs that edit the files they are given
	// (every file operand; IN [OUT]): their removes are local edits
	edits, editsInOut map[string]bool
	// where an unknown program acts: the options naming its target, the
	// words that make the target a test one (both verbs) or a developer's
	// own (changes only), and the words naming a disposable resource
	targetOpts, testTarget, devTarget, sharedTarget, disposable map[string]bool
	// localFiles: extensions of files that hold a whole store on this
	// machine (a SQLite or DuckDB database): a verb aimed at one acts here
	localFiles map[string]bool
	// testSwitches: options that alone aim a CLI at a test or staging
	// copy of its service
	testSwitches map[string]bool
	// joinedChanges: verbs too common alone to say a change elsewhere
	// (update, set, put) that do when joined to what they change
	// (update-config, start-update, config:set, put-secret); selfWords
	// join a program's update of itself (self-update)
	joinedChanges, selfWords map[string]bool
	// reportNouns: a CI report's kinds (junit, coverage, sarif): an
	// upload of one sends a test run's results
	reportNouns map[string]bool
	// fileActs: change verbs that act on this machine when their
	// operands are files (k6 archive load/soak.js makes a tarball here)
	fileActs map[string]bool
	// neutral: words that make what follows a name, not an act
	// (explain, simulate, docs, generate migration DropUsers)
	neutral map[string]bool
	// localStores: the database files among localFiles (a change verb
	// aimed at one acts here)
	localStores map[string]bool
	// camelChanges: verbs that change a service only in an API
	// operation's name (CreateGrant)
	camelChanges map[string]bool
	// actionOpts: options whose value is the act (--action delete, -cmd
	// StopService); optionNot: words that make a verb-named option a
	// parameter or this run's switch (--delete-after, --reset-cache);
	// optionSkip: change verbs too common as switches to count in an
	// option's name (--disable-color, --enable-gpu)
	actionOpts, optionNot, optionSkip map[string]bool
	// actionChanges: the values of an action option that name a change
	// though alone they are too common a word (--action add, -op cancel);
	// changeOpts: a bare option that is the act (-submit, --publish)
	actionChanges, changeOpts map[string]bool
	// joinedPrefixes: change verbs read when run together with their noun
	// (closeallchannels, sendfunds); joinedNot: words that only start so
	// (payload, stopwatch); joinedSuffixes: endings that make a noun or
	// adjective of the verb (payment, stopped)
	joinedPrefixes            []string
	joinedNot, joinedSuffixes map[string]bool
	// stdinWords: a program's first words that open its console, whose
	// input is then its commands (zorkctl shell <<EOF)
	stdinWords map[string]bool
	// accessVerbs, accessNouns, accessObjects, accessNot: a common verb
	// next to or joined to an access noun (user add, add-user, addOwner)
	// changes who can use a shared service; a first word of the tool's own
	// settings (config set user) keeps it local
	accessVerbs                                       []string
	accessVerb, accessNouns, accessObjects, accessNot map[string]bool
	// nameNot: ends of a program's name that name a local tool's act
	// (file-rename, touchpad-toggle)
	nameNot map[string]bool
	// reNot: re words that are no change done again (resend: a webhook
	// event sent again to test an endpoint)
	reNot map[string]bool
	// fedChanges: a file-transfer or console client's commands that put
	// something on the service when fed on its input (put, mput)
	fedChanges map[string]bool
	// dottedChanges: the verbs that end an API operation named
	// noun.verb (jobs.create, users.update, fine_tuning.jobs.cancel): the
	// change verbs, and the joined and camel ones, which an operation's
	// name joins to its resource as CreateGrant does
	dottedChanges map[string]bool
	// dottedNot: words that end file names as often as operations
	// (fix.patch, poetry.lock, mesh.off): no verb after a dot
	dottedNot map[string]bool
}

var destroyVerbs = sync.OnceValue(func() verbTable {
	t := verbTable{verbs: map[string]bool{}, changes: map[string]bool{}, options: map[string]bool{}, reads: map[string]bool{}, local: map[string]bool{}, edits: map[string]bool{}, editsInOut: map[string]bool{},
		targetOpts: map[string]bool{}, testTarget: map[string]bool{}, devTarget: map[string]bool{}, sharedTarget: map[string]bool{}, disposable: map[string]bool{}, localFiles: map[string]bool{}, testSwitches: map[string]bool{},
		joinedChanges: map[string]bool{}, selfWords: map[string]bool{}, reportNouns: map[string]bool{}, neutral: map[string]bool{}, localStores: map[string]bool{}, camelChanges: map[string]bool{},
		actionOpts: map[string]bool{}, optionNot: map[string]bool{}, optionSkip: map[string]bool{}, joinedNot: map[string]bool{}, joinedSuffixes: map[string]bool{}, stdinWords: map[string]bool{},
		accessVerb: map[string]bool{}, accessNouns: map[string]bool{}, accessObjects: map[string]bool{}, accessNot: map[string]bool{}, nameNot: map[string]bool{}, reNot: map[string]bool{}, fedChanges: map[string]bool{}, dottedNot: map[string]bool{}, fileActs: map[string]bool{},
		actionChanges: map[string]bool{}, changeOpts: map[string]bool{}}
	datatable.Must("verbs.txt", verbsText, 1, func(l datatable.Line) error {
		if l.Fields[0] == "joined-prefixes" {
			t.joinedPrefixes = append(t.joinedPrefixes, l.Fields[1:]...)
			return nil
		}
		if l.Fields[0] == "access-verbs" {
			t.accessVerbs = append(t.accessVerbs, l.Fields[1:]...)
		}
		m := map[string]map[string]bool{"action-options": t.actionOpts, "option-not": t.optionNot, "option-skip": t.optionSkip, "joined-not": t.joinedNot, "joined-suffixes": t.joinedSuffixes, "stdin-words": t.stdinWords,
			"access-verbs": t.accessVerb, "access-nouns": t.accessNouns, "access-objects": t.accessObjects, "access-not": t.accessNot, "name-not": t.nameNot, "re-not": t.reNot, "fed-changes": t.fedChanges, "dotted-not": t.dottedNot, "action-changes": t.actionChanges, "change-options": t.changeOpts,
			"verbs": t.verbs, "changes": t.changes, "options": t.options, "reads": t.reads, "local": t.local, "edits": t.edits, "edits-inout": t.editsInOut,
			"target-options": t.targetOpts, "test-targets": t.testTarget, "dev-targets": t.devTarget, "shared-targets": t.sharedTarget, "disposable": t.disposable, "local-files": t.localFiles, "test-switches": t.testSwitches,
			"joined-changes": t.joinedChanges, "self-words": t.selfWords, "report-nouns": t.reportNouns, "neutral": t.neutral, "local-stores": t.localStores, "camel-changes": t.camelChanges, "file-acts": t.fileActs}[l.Fields[0]]
		if m == nil {
			return l.Errorf("list %q: want verbs, changes, options, reads, local, edits, edits-inout, target-options, test-targets, dev-targets, shared-targets, disposable, local-files, test-switches, joined-changes, self-words, report-nouns, neutral, local-stores, camel-changes, file-acts, action-options, option-not, option-skip, joined-prefixes, joined-not, joined-suffixes, stdin-words, access-verbs, access-nouns, access-objects, access-not, name-not, re-not, fed-changes, dotted-not, action-changes or change-options", l.Fields[0])
		}
		for _, w := range l.Fields[1:] {
			m[w] = true
		}
		return nil
	})
	t.dottedChanges = map[string]bool{}
	for _, m := range []map[string]bool{t.changes, t.joinedChanges, t.camelChanges} {
		for w := range m {
			t.dottedChanges[w] = !t.dottedNot[w]
		}
	}
	return t
})

// Known reports whether warden has a table for program name: the tool
// table, a family, a word table, or a local program of verbs.txt.
func Known(name string) bool {
	// toolTable too: a program listed only for what it reads (cat, grep,
	// tail, wc) is known, so its operands (grep rm file) are no verb
	return effectRules()[name] != nil || toolTable()[name] != nil && !toolTable()[name].onlyDry || destroyVerbs().local[name] || destroyVerbs().edits[name] || destroyVerbs().editsInOut[name] || IsInterpreter(name) || shells[name] || adminProgram(name)
}

// UnknownDestroy names the destroy verb or option of a program warden
// has no table for (hcloud server delete, nomad job stop -purge), "" for
// none, a known program, a script by path, help and dry-run forms.
func (c *Cmd) UnknownDestroy() string {
	if v := c.scriptVerb(true); v != "" {
		return wrapped(c, v) // python3 x.py delete-workspace, ./x.sh purge (scriptverbs.go)
	}
	return c.unknownDestroyWord()
}

// unknownDestroyWord is UnknownDestroy past a script's subcommand, for
// effectOf, which has read that already (scriptVerb walks the script's
// words).
func (c *Cmd) unknownDestroyWord() string {
	// A known program never has an unknown destroy (the test below says
	// so too): asked first, before destroyWord lowers and splits words,
	// it spares the common command (ls, grep, cat) that work.
	if Known(c.Name) {
		return ""
	}
	v := c.destroyWord()
	if v == "" {
		v = c.hiddenVerb(destroyVerbs().verbs, true) // --delete-job, --action delete, a purge fed on stdin
		if v == "" {
			v = c.nameVerb(destroyVerbs().verbs) // db_drop orders
		}
	}
	if v == "" || c.localHostTarget() || c.psCmdlet() || localDevGroup(c) || scriptName(c.Name, c.Raw) || Known(c.Name) || c.DryRun() || c.asksHelp() || c.ownTarget(false) || c.localFileTarget() || c.CatalogueSaysNot() || c.RemoteAction() == "change" {
		return ""
	}
	return wrapped(c, v)
}

// localFileTarget: an operand among c's first words is a database file
// on this machine (sqlite-utils drop-table data/scratch.db t, a tool's
// delete-index ./index.duckdb): the verb acts on that file, which the
// zone rules judge, not on a service elsewhere.
func (c *Cmd) localFileTarget() bool {
	t := destroyVerbs()
	for i, p := range c.Pos {
		if i > 3 {
			break
		}
		if strings.Contains(p, "://") || strings.ContainsAny(p, "$`") {
			continue
		}
		if dot := strings.LastIndexByte(p, '.'); dot > 0 && t.localFiles[strings.ToLower(p[dot:])] {
			return true
		}
	}
	return false
}

// localStoreTarget: an operand among c's first words, not an option's
// value, is a database file on this machine (sqlite-utils vacuum
// data.db): a change verb acts on that file here.
func (c *Cmd) localStoreTarget() bool {
	t := destroyVerbs()
	for i, p := range c.Pos {
		if i > 3 {
			break
		}
		if dot := strings.LastIndexByte(p, '.'); dot > 0 && t.localStores[strings.ToLower(p[dot:])] && !strings.Contains(p, "://") && !optionBefore(c.Args, p) {
			return true
		}
	}
	return false
}

// destroyWord is the first destroy option or verb among c's first
// words, "" when a read word comes first or none is there: the cheap
// test, made before asking whether the program is known.
func (c *Cmd) destroyWord() string {
	t := destroyVerbs()
	for _, f := range c.Flags {
		if (t.options[f] || forcedDestroyOption(t, f)) && !c.Has("-o", "--output", "--out", "--outdir", "--output-dir") {
			return f // with an output option it filters what it writes (gdcmanon --remove TAG -o out/)
		}
	}
	pos := c.verbPos()
	split := len(pos) != len(c.Pos) // dottedOp reads c.Pos by index
	n := 0
	for i, p := range pos {
		if n = wordCount(c, n, i, p); n > 4 {
			break // the first four words, global options' values aside
		}
		if i == 0 && (dottedVerb(p, t.verbs) || slashVerb(p, t.verbs) && remoteRules()[c.Name] == nil) {
			return p // govc vm.destroy, snapshot.remove: noun.verb; admin/delete
		}
		if !split && i > 0 && i < 3 && dottedOp(c, i, t.verbs) {
			return p // cv api4 Contact.delete, drush entity.delete: after an API or group word
		}
		if strings.ContainsAny(p, "/=@ .$") {
			if optionBefore(c.Args, p) {
				continue // an option's value (jenkins-cli -s http://ci/ delete-job x, pinto --root "$REPO" delete x)
			}
			break
		}
		l := strings.ToLower(p)
		if storeClean(pos, i, l) {
			return l // dspace database clean: the store emptied (storeclean.go)
		}
		if t.reads[l] || t.neutral[l] || strings.Trim(l, "abcdefghijklmnopqrstuvwxyz0123456789:_-") != "" || checkPhrase(l) {
			return "" // hcloud server list, apt-cache search purge, ceph osd safe-to-destroy
		}
		if camel := camelParts(p); camel != nil {
			// an API operation's name (DeleteUser, terminateInstances,
			// ListUsers): its words decide, a read or test word first
			if slices.ContainsFunc(camel, func(w string) bool { return t.reads[w] || t.neutral[w] || checkWords[w] }) {
				return ""
			}
			if slices.ContainsFunc(camel, func(w string) bool { return t.verbs[w] }) && !optionBefore(c.Args, p) {
				return l
			}
			continue
		}
		if t.verbs[l] || reVerb(t.verbs, l) != "" || progPrefixVerb(c.Name, l, t.verbs, false) != "" || clVerb(p, true) != "" {
			if Known(l) && optionBefore(c.Args, p) {
				continue // fd -x rm, command -v rm: a program named as an option's value
			}
			return l // an unknown program's rm is its own subcommand (s5cmd rm, databricks fs rm)
		}
		for _, v := range []string{"delete", "remove", "destroy", "purge", "drop", "erase", "wipe", "undefine", "unregister"} {
			if strings.HasPrefix(l, v) && len(l) > len(v) && !strings.ContainsAny(l, ":-_") && !optionBefore(c.Args, p) && !strings.HasSuffix(l, "ed") {
				return l // deletesnapshot, removeitem, unregistervm
			}
		}
		if strings.ContainsAny(l, ":-_") {
			parts := strings.FieldsFunc(l, func(r rune) bool { return r == ':' || r == '-' || r == '_' })
			if slices.ContainsFunc(parts, func(w string) bool { return t.neutral[w] || checkWords[w] }) {
				return "" // explain-delete, docs:drop, preview-delete
			}
			for _, w := range parts {
				if t.verbs[w] {
					return l // apps:destroy, delete-bucket
				}
			}
		}
	}
	return ""
}

// UnknownChange names the change verb (verbs.txt "changes") among the
// first words of a program warden has no table for (fly-like deploys,
// account suspensions, refunds), "" for none, a known program, a script
// by path, help and dry-run forms, and a read word before it.
func (c *Cmd) UnknownChange() string {
	if v := c.scriptVerb(false); v != "" {
		return wrapped(c, v)
	}
	return c.unknownChangeWord()
}

// unknownChangeWord is UnknownChange past a script's subcommand
// (unknownDestroyWord says why).
func (c *Cmd) unknownChangeWord() string {
	unjudged := false
	if Known(c.Name) {
		if unjudged = c.adminUnjudged(); !unjudged {
			return "" // as in UnknownDestroy: before changeWord's word work
		}
	}
	v := c.changeWord()
	if v == "" {
		v = c.hiddenVerb(destroyVerbs().changes, false)
		if v == "" && remoteRules()[c.Name] == nil {
			v = c.accessWord() // zorkctl user add bob, role assign, add-user
		}
		if v == "" {
			v = c.nameVerb(destroyVerbs().changes) // acme-deploy prod, svc-restart api
		}
		if v == "" {
			v = c.nounVerbChange() // items update 42, volume resize, pr merge (nounverbs.go)
		}
		if v == "" {
			v = c.soleWeakVerb() // acmectl cancel 42 (nounverbs_weak.go)
		}
		if v == "" {
			v = c.addressedSync() // tyk-sync sync --gateway http://gw.acme.internal:8080
		}
		if v == "" {
			v = c.shortCommandOption() // psadmin -c shutdown (nounverbs_weak.go)
		}
	}
	if v == "" || c.localHostTarget() || c.psCmdlet() || localDevGroup(c) || scriptName(c.Name, c.Raw) || Known(c.Name) && !unjudged || chainTools()[c.Name] && c.ChainTx() != nil || c.cosmosTxForm() || c.DryRun() || c.asksHelp() || c.ownTarget(true) || c.localStoreTarget() || c.fileAct(v) || c.CatalogueSaysNot() {
		return ""
	}
	return wrapped(c, v)
}

// fileAct: v is a verb of verbs.txt's file-acts and every operand after
// it is a file by its name (k6 archive load/soak.js -O /tmp/soak.tar):
// it packs those files here. A URL, a user@host or a bare name (mytool
// archive acme-web, a project) is a resource elsewhere.
func (c *Cmd) fileAct(v string) bool {
	if !destroyVerbs().fileActs[strings.ToLower(v)] {
		return false
	}
	after, files := false, 0
	for _, p := range c.Pos {
		if !after {
			after = strings.EqualFold(p, v)
			continue
		}
		if strings.Contains(p, "://") || strings.Contains(p, "@") {
			return false
		}
		if optionBefore(c.Args, p) && !fileName(p) {
			continue
		}
		if !fileName(p) {
			return false
		}
		files++
	}
	return files > 0
}

// fileName: p names a file by its form: an extension of one to five
// letters or digits after a name (soak.js, logs/app.log, out.tar.gz).
func fileName(p string) bool {
	b := path.Base(p)
	ext := path.Ext(b)
	if len(ext) < 2 || len(ext) > 6 || len(b) == len(ext) {
		return false
	}
	return strings.Trim(strings.ToLower(ext[1:]), "abcdefghijklmnopqrstuvwxyz0123456789") == ""
}

// changeWord is destroyWord for the change verbs: the first of them among
// c's first words, whole or as a part of a word joined by : - _
// (apps:promote, release-create), "" when a read word comes first.
func (c *Cmd) changeWord() string {
	t := destroyVerbs()
	for i, a := range c.Args {
		name, val, _ := strings.Cut(a, "=")
		if !t.changeOpts[name] {
			continue
		}
		if val == "" && i+1 < len(c.Args) {
			val = c.Args[i+1]
		}
		if v := strings.ToLower(val); v != "never" && v != "false" && v != "no" && v != "none" && v != "off" && v != "0" {
			return name // webin-like -submit, --publish: the run is the act (--publish never: not)
		}
	}
	pos := c.verbPos()
	split := len(pos) != len(c.Pos) // dottedOp reads c.Pos by index
	n := 0
	for i, p := range pos {
		if i == 0 && (dottedVerb(p, t.dottedChanges) || slashVerb(p, t.changes) && remoteRules()[c.Name] == nil) {
			return p // a noun.verb operation (vm.shutdown, host.reboot, jobs/cancel)
		}
		if !split && i > 0 && i < 3 && dottedOp(c, i, t.dottedChanges) {
			return p // cv api4 Contact.update
		}
		if n = wordCount(c, n, i, p); n > 4 {
			break // the first four words, global options' values aside
		}
		if strings.ContainsAny(p, "/=@ .") {
			if optionBefore(c.Args, p) {
				continue // ecspresso --config deploy/prod/x.yml deploy: an option's value before the verb
			}
			break
		}
		l := strings.ToLower(p)
		if t.reads[l] || t.neutral[l] || strings.Trim(l, "abcdefghijklmnopqrstuvwxyz0123456789:_-") != "" || checkPhrase(l) {
			return "" // ceph osd ok-to-stop: a question, not the act
		}
		if optionBefore(c.Args, p) {
			continue // knife ssh … -x deploy: an option's value
		}
		if camel := camelParts(p); camel != nil {
			// UpdateService, createGrant, SetPolicy, StopJob: an API
			// operation's name; a read or test word in it (GetPolicy,
			// ListJobs, TestConnection) makes it a read
			if slices.ContainsFunc(camel, func(w string) bool { return t.reads[w] || t.neutral[w] || checkWords[w] }) {
				return ""
			}
			if slices.ContainsFunc(camel, func(w string) bool { return t.changes[w] || t.joinedChanges[w] || t.camelChanges[w] }) {
				return l
			}
			continue
		}
		if nounBeforeRead(pos, i) || reportUpload(t, pos, i) || i < len(pos)-1 && checkWords[strings.ToLower(pos[len(pos)-1])] {
			// the last word asks how the act stands (gluster volume
			// rebalance gv0 status)
			return "" // pscale deploy-request diff, octopus release list, datadog-ci junit upload
		}
		if t.changes[l] || reVerb(t.changes, l) != "" {
			return l // republish, reprovision: a change done again
		}
		if progPrefixVerb(c.Name, l, t.changes, true) != "" || clVerb(p, false) != "" {
			return l // lmutil lmdown, xyctl xyrestart: the program's prefix before the verb
		}
		if joinedChange(t, l) {
			return l // suspendacct, disableuser, closeallchannels: verb and noun run together
		}
		if strings.ContainsAny(l, ":-_") {
			parts := strings.FieldsFunc(l, func(r rune) bool { return r == ':' || r == '-' || r == '_' })
			if slices.ContainsFunc(parts, func(w string) bool { return t.reads[w] || t.neutral[w] || checkWords[w] }) {
				return "" // deploy:check, release-status
			}
			if slices.ContainsFunc(parts, func(w string) bool { return t.changes[w] }) {
				return l
			}
			if slices.ContainsFunc(parts, func(w string) bool { return t.joinedChanges[w] }) && !slices.ContainsFunc(parts, func(w string) bool { return t.selfWords[w] }) && !postStage(parts) {
				return l // update-config, start-update, config:set
			}
		}
	}
	return ""
}

// nounBeforeRead: the word after pos[i] lists or shows (list, diff,
// get, display, list-peers): pos[i] is the noun it reads (pscale
// deploy-request diff, octopus release list, r10k deploy display),
// not a verb.
func nounBeforeRead(pos []string, i int) bool {
	if i+1 >= len(pos) {
		return false
	}
	next := strings.ToLower(pos[i+1])
	if ReadWord(next) {
		return true
	}
	head, _, _ := strings.Cut(next, "-")
	return head != next && ReadWord(head) && !strings.ContainsAny(next, "/=@ .")
}

// reportUpload: pos[i] is an upload whose word before names a CI
// report (junit, coverage, sarif, sourcemaps: verbs.txt report-nouns):
// a test run's results sent to the CI service that shows them.
func reportUpload(t verbTable, pos []string, i int) bool {
	if i == 0 || !strings.EqualFold(pos[i], "upload") {
		return false
	}
	return t.reportNouns[strings.ToLower(pos[i-1])]
}

// joinedChange: l is a change verb of verbs.txt joined-prefixes run
// together with its noun (whmapi1 suspendacct, disableuser,
// sendfunds): a word of its own that starts so (payload, stopwatch) or
// an ending that makes a noun or adjective (payment, stopped) is not.
func joinedChange(t verbTable, l string) bool {
	if strings.ContainsAny(l, ":-_") {
		return false
	}
	for _, v := range t.joinedPrefixes {
		if rest, ok := strings.CutPrefix(l, v); ok && len(rest) > 1 && !t.joinedSuffixes[rest] && !t.joinedNot[l] {
			return true
		}
	}
	return false
}

// dottedVerb: w is a noun.verb operation name, two or three lowercase
// words joined by dots whose last is in verbs (govc vm.destroy,
// snapshot.remove): a file name's last part is an extension, a host's a
// domain, neither a verb.
func dottedVerb(w string, verbs map[string]bool) bool {
	// two or three lowercase parts, read with Cut: this runs on words of
	// every program warden has no table for
	if n := strings.Count(w, "."); n < 1 || n > 2 {
		return false
	}
	for rest := w; ; {
		p, r, more := strings.Cut(rest, ".")
		if more && p != "" && p[0] >= 'A' && p[0] <= 'Z' {
			p = p[1:] // an entity's name (Contact.delete, Civi.Group.purge)
			if p == "" {
				p = "x"
			}
		}
		if p == "" || strings.Trim(p, "abcdefghijklmnopqrstuvwxyz_") != "" || p[0] == '_' || p[len(p)-1] == '_' {
			return false // fine_tuning.jobs.create: a resource's name may join words with _
		}
		if !more {
			return verbs[p]
		}
		rest = r
	}
}

// scriptName: a program named by path, variable or assignment, or a
// file with an extension (a script of the project), which the script
// rules judge; a shell script installed on PATH under its own name
// (infacmd.sh, kafka-topics.sh) is a program like any other.
func scriptName(name, raw string) bool {
	if strings.ContainsAny(name, "/$=") {
		return true
	}
	if base, ok := strings.CutSuffix(name, ".sh"); ok && base != "" && !strings.Contains(base, ".") {
		return strings.Contains(raw, "/") // ./scripts/cleanup.sh: the project's script
	}
	return strings.Contains(name, ".")
}

// CamelParts is camelParts for the rules of the policy package.
//
// camelParts splits an operation name written in CamelCase or camelCase
// (DeleteUser, terminateInstances, resetMFA) into its lowercase words;
// nil for a word with no upper-case letter after lower-case, one with
// other characters than letters, or one all in capitals (BOB, PRD).
func CamelParts(w string) []string { return camelParts(w) }

func camelParts(w string) []string {
	hasLower, bump := false, false
	for i := 0; i < len(w); i++ {
		b := w[i]
		switch {
		case b >= 'a' && b <= 'z':
			hasLower = true
		case b >= 'A' && b <= 'Z':
			if i > 0 && w[i-1] >= 'a' && w[i-1] <= 'z' {
				bump = true
			}
		default:
			return nil
		}
	}
	if !hasLower || !bump {
		return nil
	}
	var parts []string
	start := 0
	for i := 1; i < len(w); i++ {
		if w[i] >= 'A' && w[i] <= 'Z' && (w[i-1] >= 'a' && w[i-1] <= 'z' || i+1 < len(w) && w[i+1] >= 'a' && w[i+1] <= 'z' && w[i-1] >= 'A' && w[i-1] <= 'Z') {
			parts = append(parts, strings.ToLower(w[start:i]))
			start = i
		}
	}
	return append(parts, strings.ToLower(w[start:]))
}

// slashVerb: w is a noun/verb operation path, two lowercase words
// joined by one slash whose last is in verbs (admin/delete, jobs/cancel).
func slashVerb(w string, verbs map[string]bool) bool {
	noun, verb, ok := strings.Cut(w, "/")
	if !ok || noun == "" || strings.Trim(noun, "abcdefghijklmnopqrstuvwxyz") != "" || strings.Trim(verb, "abcdefghijklmnopqrstuvwxyz") != "" {
		return false
	}
	return verbs[verb]
}

// checkWords join a change verb in a word that only looks (deploy:check).
// localDevGroup: c's first word opens the program's local development
// environment (astro dev restart, wrangler dev, shopify app dev): what
// it restarts or kills runs on this machine.
func localDevGroup(c *Cmd) bool {
	// an option's value is no group word (lftp -u dev sftp://host: the login's name)
	return len(c.Pos) > 1 && (c.Pos[0] == "dev" || c.Pos[0] == "local") && !optionBefore(c.Args, c.Pos[0]) && !c.Has("--remote", "--cloud", "--deployment-id", "-d")
}

// checkPhrase: a joined word that asks whether an act is safe or how it
// stands rather than doing it (ok-to-stop, safe-to-destroy, can-delete,
// is-enabled, check-upgrade, purge-status, drain-check): a read.
func CheckPhrase(l string) bool { return checkPhrase(strings.ToLower(l)) }

func checkPhrase(l string) bool {
	parts := strings.FieldsFunc(l, func(r rune) bool { return r == ':' || r == '-' || r == '_' })
	if len(parts) < 2 {
		return false
	}
	switch parts[0] {
	case "ok", "safe", "can", "is", "check", "would", "will", "whatif", "what":
		return true
	}
	switch parts[len(parts)-1] {
	case "check", "checks", "status", "preview", "diff", "plan", "ok", "safe", "dryrun":
		return true
	}
	return false
}

var checkWords = map[string]bool{"check": true, "status": true, "verify": true, "validate": true, "test": true, "lint": true, "dry": true, "preview": true}

// wrapped is v unless c is a wrapper (its arguments are a command the
// reading follows on its own): then "".
func wrapped(c *Cmd, v string) string {
	if c.Name == "xargs" || c.Name == "parallel" {
		return "" // the reading follows the command it fans out (fanOut)
	}
	if inner, _, payload := unwrap(c.Name, c.Args); inner != nil || payload != "" {
		return ""
	}
	return v
}

// optionBefore: the argument before the first p in args is an option.
func optionBefore(args []string, p string) bool {
	for i, a := range args {
		if a == p {
			// an option joined to its value (--root=/srv/x) takes no next word:
			// pinto --root=/srv/x delete pkg reads delete as the verb
			return i > 0 && strings.HasPrefix(args[i-1], "-") && !(strings.HasPrefix(args[i-1], "--") && strings.Contains(args[i-1], "="))
		}
	}
	return false
}

// adminProgram: a program of admin.txt (a server's, device's or robot's
// command line, a device shell's word): that table judges its verbs,
// where it acts included (a lab target asks where another host denies).
func adminProgram(name string) bool {
	p := adminTab().progs[name]
	return p != nil && !p.listed // a listed program's other verbs are for the other tables (nomad deployment promote)
}

// ownTarget: an unknown program's verb acts on a resource of the
// developer's own: one of its first words names a disposable kind (sf
// org delete scratch), or an option naming its target (--target-org,
// --env, --stage) is given a test one (ci-test, scratch, e2e) or, for a
// change, a developer's own (dev, local). A target with a word of
// production in it is never one.
// OwnTarget is ownTarget for the rules that read a known program's
// environment option (artisan db:wipe --env=testing, databricks bundle
// deploy -t dev).
func (c *Cmd) OwnTarget(change bool) bool { return c.ownTarget(change) }

func (c *Cmd) ownTarget(change bool) bool {
	t := destroyVerbs()
	for _, f := range c.Flags {
		if t.testSwitches[f] {
			return true // --staging, --sandbox, --testnet: a test copy of the service
		}
	}
	for i, p := range c.Pos {
		if i > 3 {
			break
		}
		if t.disposable[strings.ToLower(p)] && !optionBefore(c.Args, p) {
			return true
		}
		if disposableJoined(t, p) && !optionBefore(c.Args, p) {
			return true // cci org scratch_delete dev: the verb joined to the kind
		}
	}
	found := false
	for i, a := range c.Args {
		name, val, joined := strings.Cut(a, "=")
		if !t.targetOpts[name] {
			continue
		}
		if !joined {
			if i+1 >= len(c.Args) {
				continue
			}
			val = c.Args[i+1]
		}
		if name == "-n" && strings.Trim(val, "0123456789") == "" {
			continue // -n 3: a count, not a namespace
		}
		if loopbackURL(val) {
			found = true // --address=http://localhost:9009: a server on this machine
			continue
		}
		// a SaaS tenant's environment (tenanthost.go), by its URL's first
		// label or the auth profile named for it: a developer's own only
		// when named for development (contoso-dev-jsmith, pdi-dev218734);
		// a tenant's test environment is the team's
		tenant := name == "--auth"
		if l := tenantLabel(val); l != "" {
			val, tenant = l, true
		} else if strings.ContainsAny(val, "/:@$") {
			return false // a URL, a path or a variable: a host is not named for what it holds (https://ci.example.org)
		}
		words := strings.FieldsFunc(strings.ToLower(val), func(r rune) bool { return r == '-' || r == '_' || r == '.' })
		own := false
		for _, w := range words {
			if t := strings.TrimRight(w, "0123456789"); t != "" && t != w && !prodNamed(w) {
				w = t // dev218734, test2: a numbered instance of the kind
			}
			switch {
			case prodNamed(w):
				return false
			case t.testTarget[w] && !tenant || change && t.devTarget[w] || change && t.sharedTarget[w] && !tenant:
				// shared-targets (qa): a deploy there is allowed, a delete or a
				// tenant's QA instance is not the developer's own
				own = true
			}
		}
		if !own {
			return false
		}
		found = true // every target option is read: --project x-dev --context prod-1 is production's
	}
	return found || ConnTargetsLocal(c.Args)
}

// ConnTargetsLocal: c's arguments name the server they act on only in
// connection strings or server options (Server=localhost,1433;…,
// /TargetServerName:(localdb)\MSSQLLocalDB, Host=127.0.0.1), and every
// one of them is this machine: sqlpackage /Action:Publish to the
// developer's own database.
func ConnTargetsLocal(args []string) bool {
	n := 0
	for _, a := range args {
		l := strings.ToLower(a)
		if !strings.Contains(l, "=") && !strings.Contains(l, ":") {
			continue
		}
		for _, part := range strings.Split(l, ";") {
			part = strings.TrimSpace(part)
			var k, v string
			if strings.HasPrefix(part, "/") || strings.HasPrefix(part, "-") {
				// /TargetServerName:x, -tsn:x; /TargetConnectionString:Server=x
				i := strings.IndexAny(part, ":=")
				if i < 0 {
					continue
				}
				k, v = part[:i], part[i+1:]
				if ck, cv, ok := strings.Cut(v, "="); ok {
					k, v = ck, cv
				}
			} else if ck, cv, ok := strings.Cut(part, "="); ok {
				k, v = ck, cv
			} else {
				continue
			}
			switch strings.TrimLeft(strings.TrimSpace(k), "/-") {
			case "server", "data source", "datasource", "address", "addr", "host", "hostname", "network address", "targetservername", "tsn", "sourceservername", "ssn":
			default:
				continue
			}
			if !localServer(v) {
				return false
			}
			n++
		}
	}
	return n > 0
}

// localServer: a connection string's server that is this machine
// (localhost,1433; tcp:127.0.0.1; .\SQLEXPRESS; (localdb)\MSSQLLocalDB).
func localServer(v string) bool {
	v = strings.Trim(strings.TrimSpace(v), `"'`)
	v = strings.TrimPrefix(strings.TrimPrefix(v, "tcp:"), "np:")
	if i := strings.IndexAny(v, ",\\"); i >= 0 {
		v = v[:i]
	}
	switch v {
	case "localhost", "127.0.0.1", "::1", "[::1]", ".", "(local)", "(localdb)":
		return true
	}
	h, port, ok := strings.Cut(v, ":")
	return ok && strings.Trim(port, "0123456789") == "" && (h == "localhost" || h == "127.0.0.1")
}

// disposableJoined: w joins a disposable kind to other words
// (scratch_delete, delete-scratch-org) and names nothing of production.
func disposableJoined(t verbTable, w string) bool {
	if !strings.ContainsAny(w, "_-:") {
		return false
	}
	hit := false
	for _, part := range strings.FieldsFunc(strings.ToLower(w), func(r rune) bool { return r == '_' || r == '-' || r == ':' }) {
		if prodNamed(part) {
			return false
		}
		hit = hit || t.disposable[part]
	}
	return hit
}

// ListsOnly reports whether c only prints: its first word is a read verb
// of verbs.txt (ufw status, nft list ruleset, fwupdmgr get-devices is
// not: get-devices is one word) or it is asked only to list (-l, --list
// with nothing named: auditctl -l). Run as root such a command reads
// what only root may read; the secret and path rules still judge what
// it reads. Shells, interpreters and wrappers are not: their words are
// another command.
func (c *Cmd) ListsOnly() bool {
	if IsShell(c.Name) || IsInterpreter(c.Name) || c.Payload != "" {
		return false
	}
	if inner, _, payload := unwrap(c.Name, c.Args); inner != nil || payload != "" {
		return false
	}
	if len(c.Pos) == 0 {
		return len(c.Args) == 1 && (c.Args[0] == "-l" || c.Args[0] == "--list")
	}
	first := strings.ToLower(c.Pos[0])
	return destroyVerbs().reads[first] && !optionBefore(c.Args, c.Pos[0]) && c.destroyWord() == "" && c.changeWord() == ""
}

// ReadWord reports whether w is a word that lists or shows (verbs.txt
// reads: list, show, search, tasks): a verb after it is what is listed.
func ReadWord(w string) bool { return destroyVerbs().reads[strings.ToLower(w)] }

// DestroyOrChangeWord reports whether w is one of verbs.txt's destroy or
// change verbs (drop, unregister, takeover is not; failover is).
func DestroyOrChangeWord(w string) bool {
	t := destroyVerbs()
	w = strings.ToLower(w)
	return t.verbs[w] || t.changes[w]
}

// hiddenVerb reads the verb a program warden has no table for is given
// outside its first words (verbs.txt action-options, option-not,
// stdin-words): an option named for the act (-DeleteJob, --drop-database
// orders) before any subcommand word, the value of an action option
// (--action=delete, -cmd StopService), or the first words of each line
// of the text fed on its input (echo 'purge pool=x' | zorkctl). It
// says which form named it; "" for none.
func (c *Cmd) hiddenVerb(verbs map[string]bool, destroy bool) string {
	t := destroyVerbs()
	kind := "change"
	if destroy {
		kind = "destroy"
	}
	if slices.ContainsFunc(c.Pos, func(p string) bool { p = strings.ToLower(p); return t.reads[p] || t.neutral[p] || checkWords[p] }) {
		return "" // a read or check word among its words (symconfigure -cmd "delete dev 1;" preview)
	}
	writesOut := slices.ContainsFunc(c.Args, func(a string) bool {
		name, _, _ := strings.Cut(a, "=")
		return name == "-o" || name == "--output" || name == "--out" || name == "--outdir" || name == "--output-dir"
	}) // the whole argument: -DeleteJob is no -o
	for i, a := range c.Args {
		if a == "--" {
			break
		}
		if a == "" || a == "-" || a[0] != '-' {
			if i > 0 && strings.HasPrefix(c.Args[i-1], "-") && !strings.Contains(c.Args[i-1], "=") {
				continue // an option's value
			}
			break // a subcommand word first: the options modify it (sync --delete-after)
		}
		if len(a) < 3 {
			continue
		}
		name, val, joined := strings.Cut(a, "=")
		if t.actionOpts[name] {
			if !joined {
				if i+1 >= len(c.Args) {
					continue
				}
				val = c.Args[i+1]
			}
			if w := valueVerb(t, verbs, val); w != "" {
				return "(the option " + name + " says " + w + ": a " + kind + ")"
			}
			if w := valueVerb(t, t.actionChanges, val); w != "" && !destroy {
				return "(the option " + name + " says " + w + ": a " + kind + ")"
			}
			continue
		}
		if joined && (val == "false" || val == "0" || val == "no") || writesOut {
			continue // with an output option it filters what it writes (tippecanoe -o x --drop-densest-as-needed)
		}
		if w := optionNameVerb(t, verbs, destroy, strings.TrimLeft(name, "-")); w != "" {
			return "(the option " + name + " names a " + w + ")"
		}
	}
	if c.Heredoc != "" && (len(c.Pos) == 0 || t.stdinWords[strings.ToLower(c.Pos[0])] || len(c.Pos) == 1 && optionBefore(c.Args, c.Pos[0]) || hostOperands(c.Pos) || len(c.Pos) == 2 && optionBefore(c.Args, c.Pos[0]) && hostOperands(c.Pos[1:])) {
		for _, line := range strings.Split(c.Heredoc, "\n") {
			if w := fedVerb(t, verbs, line); w != "" || !destroy && fedChange(t, line) {
				if w == "" {
					w = strings.Fields(line)[0]
				}
				return "(the text fed on stdin says " + w + ")"
			}
		}
	}
	return ""
}

// optionNameVerb: an option's name (dashes cut) joins a verb to what
// it acts on (delete-job, DeleteJob, revoke-all-tokens): the verb, ""
// for a bare option, a parameter or switch of the run (delete-after,
// reset-cache, drop-privileges), a read or dry-run word in it.
func optionNameVerb(t verbTable, verbs map[string]bool, destroy bool, n string) string {
	var parts []string
	if camel := camelParts(n); camel != nil {
		parts = camel
	} else if strings.ContainsAny(n, "-_") {
		if strings.Trim(n, "abcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
			return ""
		}
		parts = strings.FieldsFunc(n, func(r rune) bool { return r == '-' || r == '_' })
	}
	if destroy && len(parts) >= 2 && parts[0] == "flush" && flushedStore(parts[1:]) {
		return "flush" // -flush_stordb, --flush-db: a data store emptied, not a cache
	}
	if len(parts) < 2 || !verbs[parts[0]] || !destroy && t.optionSkip[parts[0]] {
		return ""
	}
	for _, w := range parts[1:] {
		if t.optionNot[w] || t.reads[w] || t.neutral[w] || checkWords[w] {
			return ""
		}
	}
	return parts[0]
}

// flushedStore: the words after an option's flush name a data store
// (db, stordb, datadb, database, storage, tables, queue, all), whose
// flush empties the records kept there; a cache, log or output flushed
// (--flush-cache, -flush_logs) is only a switch of the run.
func flushedStore(words []string) bool {
	for _, w := range words {
		switch {
		case strings.HasSuffix(w, "db"), w == "database", w == "databases", w == "storage", w == "store", w == "tables", w == "table", w == "queue", w == "queues", w == "all", w == "data":
			return true
		}
	}
	return false
}

// valueVerb: an action option's value names a verb (delete, drop-table,
// RebootCluster, purgequeue); "" for a read (list, GetNodeList) or a
// command line of a known program (--command 'systemctl status').
func valueVerb(t verbTable, verbs map[string]bool, val string) string {
	val = strings.Trim(val, "'\"")
	if f := strings.Fields(val); len(f) > 1 {
		if l := strings.ToLower(f[0]); (Known(l) || IsShell(l)) && !t.verbs[l] && !t.changes[l] {
			return "" // a program's command line (systemctl status nginx)
		}
		val = f[0]
	}
	return wordVerb(t, verbs, val)
}

// wordVerb: one subcommand-like word names a verb of verbs, whole, in
// CamelCase, joined by - : _ or run together with its noun.
func wordVerb(t verbTable, verbs map[string]bool, w string) string {
	l := strings.ToLower(w)
	if l == "" || t.reads[l] || t.neutral[l] || strings.Trim(l, "abcdefghijklmnopqrstuvwxyz0123456789:_-") != "" || checkPhrase(l) {
		return ""
	}
	if verbs[l] {
		return l
	}
	parts := camelParts(w)
	if parts == nil && strings.ContainsAny(l, ":-_") {
		parts = strings.FieldsFunc(l, func(r rune) bool { return r == ':' || r == '-' || r == '_' })
	}
	if parts != nil {
		if slices.ContainsFunc(parts, func(p string) bool { return t.reads[p] || t.neutral[p] || checkWords[p] }) {
			return ""
		}
		if i := slices.IndexFunc(parts, func(p string) bool { return verbs[p] }); i >= 0 {
			return parts[i]
		}
		return ""
	}
	for _, v := range t.joinedPrefixes {
		if verbs[v] && joinedChange(t, l) && strings.HasPrefix(l, v) {
			return v
		}
	}
	for _, v := range []string{"delete", "remove", "destroy", "purge", "drop", "erase", "wipe"} {
		if verbs[v] && strings.HasPrefix(l, v) && len(l) > len(v)+2 && !strings.HasSuffix(l, "ed") {
			return v
		}
	}
	return ""
}

// fedVerb: a line of text fed to a program's input starts with a verb
// (purge pool=nightly-7 yes, delete job 5, drop queue orders), or a
// read word first makes it a read (list jobs, status).
// hostOperands: c's one or two operands name where it connects
// (deploy@ftp.acme.com, web01:/var/www, ftp.acme.com), not a
// subcommand: a client whose commands come on its input (sftp host <<<
// 'put x', echo 'cancel jobid=3' | console host).
func hostOperands(pos []string) bool {
	if len(pos) == 0 || len(pos) > 2 {
		return false
	}
	for _, p := range pos {
		if strings.ContainsAny(p, "$` ") || strings.HasPrefix(p, "/") || strings.HasPrefix(p, ".") {
			return false
		}
		at := strings.IndexByte(p, '@') > 0
		dotted := strings.Count(p, ".") >= 1 && !strings.Contains(p, "/") && strings.Trim(p[strings.LastIndexByte(p, '.')+1:], "abcdefghijklmnopqrstuvwxyz") == ""
		if !at && !dotted && !strings.Contains(p, "://") {
			return false
		}
	}
	return true
}

// fedChange: a line fed to a client's input starts with a verb that
// alone is too common to say a change (put, set, cancel, update) but
// is one as a console's command: the fed line is an act on the service.
func fedChange(t verbTable, line string) bool {
	f := strings.Fields(line)
	if len(f) < 2 || strings.HasPrefix(f[0], "#") {
		return false
	}
	w := strings.ToLower(f[0])
	return t.fedChanges[w] || t.joinedChanges[w] && !fedSettings[w]
}

// fedSettings: a console's own settings for the session (sqlplus set
// lines 200, msfconsole set RHOSTS), not an act on the service.
var fedSettings = map[string]bool{"set": true, "unset": true, "on": true, "off": true, "refresh": true}

func fedVerb(t verbTable, verbs map[string]bool, line string) string {
	f := strings.Fields(line)
	if len(f) == 0 || strings.HasPrefix(f[0], "#") {
		return ""
	}
	if len(f) > 1 && t.stdinWords[strings.ToLower(f[0])] || len(f) > 1 && modeDirective(f[0]) {
		f = f[1:]
	}
	if len(f) > 1 && strings.ToUpper(f[0]) == f[0] && strings.ToUpper(f[1]) == f[1] {
		return "" // SQL (DROP TABLE x): the database rules read it
	}
	return wordVerb(t, verbs, f[0])
}

// loopbackURL: val is an http(s) address of this machine itself
// (http://localhost:9009, https://127.0.0.1:8443/api), never a private
// network's host.
func loopbackURL(val string) bool {
	rest, ok := strings.CutPrefix(strings.ToLower(val), "http://")
	if !ok {
		if rest, ok = strings.CutPrefix(strings.ToLower(val), "https://"); !ok {
			return false
		}
	}
	host, _, _ := strings.Cut(rest, "/")
	if strings.ContainsAny(host, "@$") {
		return false
	}
	if h, _, ok := strings.Cut(host, "]"); ok && strings.HasPrefix(h, "[") {
		return h == "[::1"
	}
	host, _, _ = strings.Cut(host, ":")
	return host == "localhost" || host == "127.0.0.1"
}

// reVerb: l is re and a verb of verbs done again (republish,
// reprovision, reenable): that verb, "" for none (read, render,
// report, request, resolve are no such word).
func reVerb(verbs map[string]bool, l string) string {
	if len(l) < 5 || !strings.HasPrefix(l, "re") || !verbs[l[2:]] || destroyVerbs().reNot[l] {
		return ""
	}
	return l[2:]
}

// accessWord: a common verb (add, create, set, assign, generate) next to
// an access noun among c's first words (user add, role assign, token
// create, add admin) or joined to one (add-user, addUser, user:create,
// createuser): it changes who can use a shared service (verbs.txt
// access-verbs, access-nouns). A read word among them lists (users
// list), a first word of the tool's own settings (config set user,
// profile add) keeps it local.
func (c *Cmd) accessWord() string {
	t := destroyVerbs()
	n := min(len(c.Pos), 4)
	var words []string
	neutral := false
	for i := 0; i < n; i++ {
		p := c.Pos[i]
		if strings.ContainsAny(p, "/=@ .") {
			if optionBefore(c.Args, p) {
				continue
			}
			break
		}
		l := strings.ToLower(p)
		if t.reads[l] || t.neutral[l] && !t.accessVerb[l] || checkWords[l] || checkPhrase(l) || t.accessNot[l] {
			return ""
		}
		if strings.Trim(l, "abcdefghijklmnopqrstuvwxyz0123456789:_-") != "" {
			break // an operand ($INPUT, bob+1)
		}
		if optionBefore(c.Args, p) {
			words = append(words, "") // an option's value (--role owner) joins no pair
			continue
		}
		neutral = neutral || t.neutral[l]
		words = append(words, l)
		if !neutral && joinedAccess(t, p, l) { // generate migration AddUsersTable names a file
			return l + " (changes who can use a shared service)"
		}
	}
	for i := 0; i+1 < len(words); i++ {
		a, b := words[i], words[i+1]
		// generate before the noun scaffolds (generate client X), after it
		// makes one (apikey generate)
		if (t.accessNouns[a] || accessNounJoined(t, a)) && t.accessVerb[b] || t.accessVerb[a] && !t.neutral[a] && (t.accessNouns[b] || t.accessObjects[b]) {
			return a + " " + b + " (changes who can use a shared service)"
		}
	}
	return ""
}

// accessNounJoined: w ends in an access noun after - or _
// (consumer-credentials, service_account, team-members).
func accessNounJoined(t verbTable, w string) bool {
	i := strings.LastIndexAny(w, "-_")
	return i > 0 && t.accessNouns[w[i+1:]]
}

// joinedAccess: w joins an access verb to an access noun (add-user,
// user:create, addUser, createuser, grant_admin).
func joinedAccess(t verbTable, w, l string) bool {
	parts := camelParts(w)
	if parts == nil && strings.ContainsAny(l, ":-_") {
		parts = strings.FieldsFunc(l, func(r rune) bool { return r == ':' || r == '-' || r == '_' })
		if strings.Contains(l, ":") && strings.ContainsAny(l, "-_") {
			// a topic:command name whose noun is joined (box
			// shared-links:create): its colon parts are words too
			parts = append(parts, strings.Split(l, ":")...)
		}
	}
	if parts != nil {
		verb, noun := false, false
		for _, p := range parts {
			if t.reads[p] || t.neutral[p] && !t.accessVerb[p] || checkWords[p] {
				return false
			}
			verb = verb || t.accessVerb[p]
			noun = noun || t.accessNouns[p] || t.accessObjects[p]
		}
		return verb && noun
	}
	for _, v := range t.accessVerbs {
		if rest, ok := strings.CutPrefix(l, v); ok && rest != "" && (t.accessNouns[rest] || t.accessObjects[rest]) {
			return true // createuser, addmember, grantrole
		}
	}
	return false
}

// nameVerb: the name of a program warden has no table for ends in a verb
// of verbs after its last - or _ (acme-deploy, db_drop, svc-restart,
// cache-purge, rez-release): the act it does when run. "" for a read or
// check word in the name (acme-status, npm-check), a local tool's act
// (verbs.txt name-not), a read, help or version asked of it.
func (c *Cmd) nameVerb(verbs map[string]bool) string {
	i := strings.LastIndexAny(c.Name, "-_")
	if i <= 0 || i == len(c.Name)-1 || remoteRules()[c.Name] != nil {
		return ""
	}
	t := destroyVerbs()
	tail := strings.ToLower(c.Name[i+1:])
	if !verbs[tail] && reVerb(verbs, tail) == "" || t.nameNot[tail] || i >= 4 && catalogueHeads()[c.Name[:i]] {
		return "" // condor_rm: HTCondor's catalogue leaves its own jobs' removal allowed
	}
	head := strings.ToLower(c.Name[:i])
	if strings.Trim(head, "abcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
		return ""
	}
	for _, w := range strings.FieldsFunc(head, func(r rune) bool { return r == '-' || r == '_' }) {
		if t.reads[w] || t.neutral[w] || checkWords[w] || t.selfWords[w] || t.nameNot[w] {
			return ""
		}
	}
	for j, p := range c.Pos {
		if j > 2 {
			break
		}
		p = strings.ToLower(p)
		head, rest, _ := strings.Cut(p, "-")
		if t.reads[p] || t.reads[head] && strings.Trim(rest, "0123456789") != "" || t.neutral[p] || checkWords[p] || t.accessNot[p] || p == "version" || p == "help" {
			return "" // cloud-nuke inspect-aws, github-release config list
		}
	}
	if c.Has("--version", "-V", "--list", "-l", "--detect") {
		return "" // ios-deploy --detect lists the devices attached
	}
	for _, a := range c.Args {
		if o, ok := strings.CutPrefix(a, "--"); ok {
			if o, _, _ = strings.Cut(o, "="); t.reads[strings.ToLower(o)] {
				return "" // acme-deploy --status, --list-targets: the option asks it to report
			}
		}
	}
	return tail + " (the program's name ends in the act)"
}

// catalogueHeads: the names before the last - or _ of the programs the
// CLI catalogue describes (condor for condor_on): a family whose other
// members the catalogue leaves out on purpose (condor_rm, condor_submit).
var catalogueHeads = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for name := range remoteRules() {
		if i := strings.LastIndexAny(name, "-_"); i > 0 {
			m[name[:i]] = true
		}
	}
	return m
})

// localHostTarget: c's host option names this machine (--server
// localhost, -H 127.0.0.1): an unknown program's act is on a server of
// the developer's own.
func (c *Cmd) localHostTarget() bool {
	h := c.hostOption()
	return h != "" && ThisMachine(h)
}

// adminUnjudged: a program of the admin table that acts on a service
// wherever it runs (@at … any, remote or shared) is given a verb no line
// of its table names, with no host on the line to say where (acli's
// Atlassian jira workitem transition beside Acquia's push:db lines): the
// table leaves it unjudged, so the unknown program's reading of its
// words judges it as it would any CLI's.
func (c *Cmd) adminUnjudged() bool {
	p := adminTab().progs[c.Name]
	if p == nil || p.listed || p.where == "local" || p.where == "device" {
		return false
	}
	if effectRules()[c.Name] != nil || toolTable()[c.Name] != nil || destroyVerbs().local[c.Name] || IsInterpreter(c.Name) || shells[c.Name] {
		return false
	}
	a := c.AdminAction()
	return a != nil && a.Kind == "unknown" && a.Level == ""
}

// addressedSync: an unknown program's first word is sync or push and an
// option hands it the address of a service on another machine
// (tyk-sync sync --gateway http://gw.acme.internal:8080, mytool push
// --url https://registry.acme.io): what it syncs or pushes is written
// there (a sync makes the service match the files, removing what they
// lack). Alone, a sync or push is most often this machine's (uv sync,
// vale sync) and says nothing.
func (c *Cmd) addressedSync() string {
	pos := c.verbPos()
	if len(pos) == 0 || optionValue(c.Args, pos[0]) {
		return ""
	}
	v := strings.ToLower(pos[0])
	if v != "sync" && v != "push" {
		return ""
	}
	for i, a := range c.Args {
		if !strings.HasPrefix(a, "-") {
			continue
		}
		_, val, joined := strings.Cut(a, "=")
		if !joined && i+1 < len(c.Args) {
			val = c.Args[i+1]
		}
		if (strings.HasPrefix(val, "http://") || strings.HasPrefix(val, "https://")) && !ThisMachine(val) {
			return v
		}
	}
	return ""
}
