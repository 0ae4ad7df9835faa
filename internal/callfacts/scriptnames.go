package callfacts

import (
	"path"
	"strings"
)

// A script that is not on disk, run by an interpreter, a shell, by path
// or through a batch scheduler (bash ~/bin/reset-workspace.sh, node
// ~/tools/purge-cdn.js, sbatch ~/jobs/cleanup_scratch.sbatch, python3
// scripts/migrate_patients.py --commit): its text is unknown, and its
// file name says what it does. The name's words are read as an unknown
// program's verb: a destroy word (reset, purge, wipe, delete, drop,
// cleanup) of a script from outside the project asks (the project's
// own scripts/cleanup.js tidies its own files); a change word (migrate, backfill, deploy) asks when
// the run is told to commit. Everyday names (test, build, setup, dev,
// run, start, check, gen…) and scripts on disk keep their verdict (#30).

// batchExts: the extensions of a job script a scheduler runs.
var batchExts = map[string]bool{".sbatch": true, ".slurm": true, ".pbs": true, ".job": true, ".qsub": true, ".lsf": true}

// schedulers run the script they are given, later or elsewhere.
var schedulers = map[string]bool{"sbatch": true, "qsub": true, "bsub": true, "at": true, "batch": true, "srun": true, "msub": true}

// nameCleanVerbs: destroy words of a script's name beyond verbs.txt's.
// A maintenance or housekeeping script (wx-maintenance.sh) is the same
// kind: it prunes, vacuums and rotates what it keeps.
var nameCleanVerbs = map[string]bool{"cleanup": true, "clean": true, "scrub": true, "purge": true, "shred": true, "maintenance": true, "maint": true, "housekeeping": true}

// nameChangeVerbs: change words of a script's name, said with a commit flag.
var nameChangeVerbs = map[string]bool{"migrate": true, "backfill": true, "sync": true, "import": true, "fix": true, "update": true, "merge": true, "rotate": true, "reindex": true, "dedupe": true, "anonymize": true, "archive": true, "restore": true,
	"push": true, "post": true, "send": true} // push_to_wikitree.py --apply: the records go to a service

// everydayNames: words that make a script's name a developer's routine.
var everydayNames = map[string]bool{"test": true, "tests": true, "build": true, "lint": true, "setup": true, "bootstrap": true, "dev": true, "run": true,
	"start": true, "serve": true, "server": true, "check": true, "install": true, "format": true, "fmt": true, "docs": true, "demo": true,
	"example": true, "sample": true, "mock": true, "fixture": true, "fixtures": true, "local": true, "cache": true, "pycache": true, "tmp": true, "temp": true,
	"dry": true, "preview": true, "plan": true, "report": true, "list": true, "show": true, "status": true, "env": true, "venv": true, "node_modules": true}

// commitFlags: a run told to apply what it would do.
var commitFlags = map[string]bool{"--commit": true, "--apply": true, "--execute": true, "--exec": true, "--confirm": true, "--yes": true, "-y": true,
	"--force": true, "-f": true, "--no-dry-run": true, "--for-real": true, "--live": true, "--prod": true, "--production": true,
	"--push": true, "--publish": true, "--upload": true} // sync_inventory.py --push: told to send what it computed

// scriptFileArg is the script file c runs ("" for none): the first
// operand with a script's extension of an interpreter, a shell or a
// scheduler, or the path c is run by.
func (c *Cmd) scriptFileArg() string {
	if c.Payload != "" || c.Heredoc != "" {
		return ""
	}
	ext := func(a string) bool {
		e := strings.ToLower(path.Ext(a))
		return scriptExts[e] || batchExts[e] || langScript(c.Name, a) // stata-do x.do, julia x.jl
	}
	switch {
	case IsInterpreter(c.Name) || IsShell(c.Name) || schedulers[c.Name]:
		if c.Has("-c", "-e", "-m", "-r", "--eval", "-p", "--print", "--wrap") {
			return ""
		}
		for i, a := range c.Args {
			if a == "-f" && (c.Name == "at" || c.Name == "batch") && i+1 < len(c.Args) {
				return c.Args[i+1]
			}
			if strings.HasPrefix(a, "-") {
				continue
			}
			if ext(a) {
				return a
			}
			if !schedulers[c.Name] {
				return ""
			}
		}
	case (strings.HasPrefix(c.Raw, "./") || strings.HasPrefix(c.Raw, "~/") || strings.HasPrefix(c.Raw, "../")) && ext(c.Raw):
		return c.Raw
	case (strings.HasPrefix(c.Raw, "$HOME/") || strings.HasPrefix(c.Raw, "${HOME}/")) && ext(c.Raw):
		// the home spelled as a variable, often through one the line sets
		// (F=$HOME/Downloads/patch.sh; "$F"): the same file as ~/…
		return c.Raw
	}
	return ""
}

// scriptNameVerb is the verb the name of the script c runs says, when
// the script is not on disk ("" for none).
func (n *normalizer) scriptNameVerb(c *Cmd) string {
	f := c.scriptFileArg()
	if f == "" || strings.ContainsAny(f, "$`*?") {
		return ""
	}
	base := path.Base(f)
	base = strings.TrimSuffix(base, path.Ext(base))
	words := camelParts(base)
	if words == nil {
		words = strings.FieldsFunc(strings.ToLower(base), func(r rune) bool { return r == '-' || r == '_' || r == '.' })
	}
	t := destroyVerbs()
	verb, change := "", ""
	for i := range words {
		words[i] = strings.ToLower(words[i])
	}
	msg := messageScript(words)
	for _, w := range words {
		if everydayNames[w] || strings.HasPrefix(w, "gen") || t.reads[w] {
			if msg == "" || quietMessageWords[w] {
				return ""
			}
			continue // send_status_sms.py: status is what the texts say, not a routine
		}
		if verb == "" && (t.verbs[w] || nameCleanVerbs[w]) {
			verb = w
		}
		if change == "" && (nameChangeVerbs[w] || t.changes[w]) {
			change = w
		}
	}
	p := NormPath(f, c.Dir, n.home)
	if verb != "" && c.Dir != "" && strings.HasPrefix(p, c.Dir+"/") {
		verb = "" // the project's own cleanup (node scripts/cleanup.js): its own files, as its tasks are
	}
	if verb == "" && change != "" && c.committed() {
		verb = change
	}
	if verb == "" {
		verb = msg // send_texts.py --campaign x: its plain run sends (script_messages.go)
	}
	if verb == "" || c.DryRun() || c.asksHelp() {
		return ""
	}
	if _, ok := n.files[p]; ok {
		return "" // the line wrote it: its text is read
	}
	if _, ok := regularSize(p); ok {
		return "" // on disk: read as it is
	}
	return verb
}

// committed: c is told to apply what it would do (--commit, --apply).
func (c *Cmd) committed() bool {
	for _, a := range c.Args {
		k, _, _ := strings.Cut(a, "=")
		if commitFlags[k] {
			return true
		}
	}
	return false
}
