package policy

import (
	_ "embed"
	"slices"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// taskRunnersText: the task runners and where each puts the name of the
// task it runs (taskrunners.txt).
//
//go:embed taskrunners.txt
var taskRunnersText string

// runnerForm is where a runner's task name sits: after one of subs, or
// first when first is set.
type runnerForm struct {
	subs  map[string]bool
	first bool
}

var runnerForms = sync.OnceValue(func() map[string]runnerForm {
	m := map[string]runnerForm{}
	datatable.Must("taskrunners.txt", taskRunnersText, 2, func(l datatable.Line) error {
		f := l.Fields
		if len(f) != 2 {
			return l.Errorf("want RUNNER SUBS (subcommands before the task, | between, - for first), got %q", l.Text)
		}
		form := runnerForm{subs: map[string]bool{}}
		for _, w := range strings.Split(f[1], "|") {
			if w == "-" {
				form.first = true
			} else {
				form.subs[w] = true
			}
		}
		m[f[0]] = form
		return nil
	})
	return m
})

// taskRunnerNames are the programs taskrunners.txt lists.
func taskRunnerNames() []string {
	var out []string
	for n := range runnerForms() {
		out = append(out, n)
	}
	return out
}

// runnerTasks are the task names c is asked to run, its variables (X=1)
// left out: every positional of a runner that takes them first (make a b,
// cap production deploy), the one after the subcommand otherwise (deno
// task deploy); nil for none.
func runnerTasks(c *Cmd) []string {
	form, ok := runnerForms()[c.Name]
	if !ok || len(c.Pos) == 0 {
		return nil
	}
	c = taskArgsCut(c)
	if len(c.Pos) == 0 {
		return nil
	}
	if t := targetsByOption(c); t != nil {
		return t
	}
	if len(c.Pos) > 1 && form.subs[c.Pos[0]] {
		return c.Pos[1:2]
	}
	if !form.first || c.Name == "yarn" && yarnBuiltin[c.Pos[0]] {
		return nil
	}
	// most lines set no variable (make -j4 test): their tasks are c.Pos
	// itself, not a copy per rule (four rules ask); capped, so an append
	// by a caller copies (callers only read it)
	if !slices.ContainsFunc(c.Pos, func(p string) bool { return strings.Contains(p, "=") }) {
		return c.Pos[:len(c.Pos):len(c.Pos)]
	}
	var out []string
	for _, p := range c.Pos {
		if !strings.Contains(p, "=") {
			out = append(out, p)
		}
	}
	return out
}

// runNameWipeRule: a task named for destroying, run where its definition
// cannot be read (deno task destroy with no deno.json on disk, just nuke
// with no justfile): what it destroys is unknown, so it asks. Aimed at
// production it is core.local:run-name-destroy.
func runNameWipeRule() Rule {
	return localRule("core.local:run-name-wipe", Ask, "A task runner's task named for destroying (nuke, destroy, wipe, purge, teardown, drop) whose definition is not on disk to read: what it destroys cannot be judged; tasks that name scratch, build output or a dev/test target stay allowed; the words are data (policy/remoteops.txt)", taskRunnerNames(),
		func(e *Env, c *Cmd) string {
			if onlyHelp(c) || c.Has("-n", "--just-print", "--dry-run", "--dry", "--list", "-l") || definitionRead(e, c) {
				return ""
			}
			wipe, keep, local := opsList("wipe-task"), opsList("wipe-keep"), opsList("local-task")
			tasks := runnerTasks(c)
			for ti, t := range tasks {
				hit := false
				for _, w := range wordsOf(uncamel(t)) {
					if keep[w] || local[w] {
						hit = false
						break
					}
					hit = hit || wipe[w]
				}
				if !hit || recreatedLater(tasks[ti+1:]) {
					continue
				}
				for _, p := range c.Pos {
					for _, w := range wordsOf(p) {
						if strings.Contains(p, "=") && (local[w] || keep[w]) {
							return "" // task db:drop ENV=test
						}
					}
				}
				return c.Name + " runs " + t + ", named for destroying, and its definition is not on disk to read"
			}
			return ""
		},
		[]string{"just nuke", "deno task destroy", "mise run wipe", "bun run teardown", "poe purge", "rake db:drop", "invoke obliterate", "gradle dropDatabase", "make destroy"},
		[]string{"just nuke-cache", "deno task build", "mise run test", "task db:drop ENV=test", "make -n destroy", "rake --help", "npm run clean", "just teardown-dev", "make purge-tmp"})
}

// uncamel puts a space between a lower-case letter and the capital after
// it: gradle's dropDatabase reads as "drop Database".
func uncamel(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if i > 0 && s[i] >= 'A' && s[i] <= 'Z' && s[i-1] >= 'a' && s[i-1] <= 'z' {
			b.WriteByte(' ')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// targetsByOption: a monorepo runner's tasks named by an option
// (nx run-many -t deploy, nx affected --targets=lint,deploy, lerna run
// --scope x deploy is positional): each target given to -t, --target or
// --targets of nx run-many / affected.
func targetsByOption(c *Cmd) []string {
	if c.Name != "nx" || c.Pos[0] != "run-many" && c.Pos[0] != "affected" {
		return nil
	}
	var out []string
	for _, o := range []string{"-t", "--target", "--targets"} {
		if v := optValue(c, o); v != "" {
			out = append(out, strings.Split(v, ",")...)
		}
	}
	if out == nil {
		return []string{}
	}
	return out
}

// optionsEndOnly are the runners for which "--" only ends the options,
// the tasks following it (make -- clean, rake -- db:drop).
var optionsEndOnly = map[string]bool{"make": true, "gmake": true, "rake": true}

// taskArgsCut: the words after "--" are the arguments the task or the
// tool's command gets (tox -e py312 -- -k "drop_index or truncate" gives
// pytest a test selector, npm run test -- --grep purge, nox -s tests --
// -k wipe), not tasks to run; c with them left out of Pos. For make and
// rake "--" only ends the options and c stays as it is.
func taskArgsCut(c *Cmd) *Cmd {
	if optionsEndOnly[c.Name] {
		return c
	}
	i := slices.Index(c.Args, "--")
	if i < 0 {
		return c
	}
	after := len(c.Args) - i - 1
	if after == 0 || after > len(c.Pos) {
		return c
	}
	cut := *c
	cut.Pos = c.Pos[: len(c.Pos)-after : len(c.Pos)-after]
	return &cut
}
