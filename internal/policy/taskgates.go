package policy

import (
	"maps"
	"slices"
	"strings"
	"sync"
)

// Five rules about task runners (make, npm run, just, rake…) judge a
// task by the words of its name: an everyday npm run build or make test
// met each only for it to read the runner's tasks and find none of its
// words. The engine reads the table below as it reads subgates.go: such
// a rule runs only when a command of its programs has, somewhere in its
// arguments (lower case), one of the words its task test needs. The
// words are found once per command per call (Env.taskHits), for every
// group at once.
//
// Each entry is a necessary condition read from the rule's Match: it
// returns "" unless a task name of the command (runnerTasks: operands,
// or an option's value) holds one of these words, split as the rule
// splits it (wordsOf, nameHas, uncamel) and so a substring of the
// lowered arguments. Change one with the other; TestTaskGatesAreSound
// runs every gated rule's cases and the corpora against its entry.
// money-task (moneyNounText) and prod-task (a word for production on the
// line) read theirs first already.

// taskGroup is a set of words a gated rule's task test needs.
type taskGroup uint8

const (
	taskWipe    taskGroup = 1 << iota // remoteops.txt wipe-task: run-name-wipe
	taskDeploy                        // remoteops.txt deploy-task: deploy-task
	taskDestroy                       // destroyWords: run-name-destroy, run-name-destroy-env
	taskClean                         // cleanWords: run-name-destroy's and run-name-shared's clean targets
	taskShared                        // run-name-shared's rotate, prune and data verbs
	taskGroups  = 5
)

// builtinTaskGates is built on first use, like builtinSubGates.
var builtinTaskGates = sync.OnceValue(func() map[string]taskGroup {
	return map[string]taskGroup{
		"core.local:run-name-wipe":        taskWipe,                // wipe[w] for a word of uncamel(task)
		"external.systems:deploy-task":    taskDeploy,              // deployTask: ship[w]
		"core.local:run-name-destroy":     taskDestroy | taskClean, // nameHas(t, destroyWords), or cleanWords[t] given variables
		"core.local:run-name-destroy-env": taskDestroy,             // nameHas(t, destroyWords)
		"core.local:run-name-shared":      taskShared | taskClean,  // a rotate, prune or data verb, or a clean target with -C
	}
})

// taskGroupWords are each group's words, sorted.
var taskGroupWords = sync.OnceValue(func() [taskGroups][]string {
	var out [taskGroups][]string
	out[0] = slices.Sorted(maps.Keys(opsList("wipe-task")))
	out[1] = slices.Sorted(maps.Keys(opsList("deploy-task")))
	out[2] = slices.Sorted(maps.Keys(destroyWords))
	out[3] = slices.Sorted(maps.Keys(cleanWords))
	var shared []string
	for _, m := range []map[string]bool{sharedRotateVerbs, sharedPruneVerbs, sharedDataVerbs} {
		shared = append(shared, slices.Collect(maps.Keys(m))...)
	}
	slices.Sort(shared)
	out[4] = shared
	return out
})

// taskWord is a word of a task group (taskGroupWords) and its group.
type taskWord struct {
	word  string
	group taskGroup
}

// taskAll is every task group.
const taskAll taskGroup = 1<<taskGroups - 1

// taskWordIndex is taskGroupWords by their first byte, and the groups
// holding an empty word (which every text holds).
type taskWordIndex struct {
	by    [256][]taskWord
	empty taskGroup
}

// taskWordsByByte is the index of taskGroupWords, built on first use.
var taskWordsByByte = sync.OnceValue(func() *taskWordIndex {
	x := &taskWordIndex{}
	for g, words := range taskGroupWords() {
		for _, w := range words {
			if w == "" {
				x.empty |= 1 << g
				continue
			}
			x.by[w[0]] = append(x.by[w[0]], taskWord{w, 1 << g})
		}
	}
	return x
})

// taskHits is the set of groups whose words the i-th command's
// arguments hold (lower case), read once per call.
func (e *Env) taskHits(i int) taskGroup {
	if i < len(e.taskMemo) && e.taskMemo[i]&taskKnown != 0 {
		return taskGroup(e.taskMemo[i] &^ taskKnown)
	}
	c := &e.F.Commands[i]
	var b strings.Builder
	for _, a := range c.Args {
		b.WriteString(a)
		b.WriteByte(' ')
	}
	for _, p := range c.Pos {
		b.WriteString(p)
		b.WriteByte(' ')
	}
	text := strings.ToLower(b.String())
	// each position of the text is read against the words starting with
	// its byte (taskWordsByByte), not each word against the whole text:
	// the same substrings found, in one pass
	idx := taskWordsByByte()
	hits := idx.empty
	for j := 0; j < len(text) && hits != taskAll; j++ {
		for _, w := range idx.by[text[j]] {
			if hits&w.group == 0 && strings.HasPrefix(text[j:], w.word) {
				hits |= w.group
			}
		}
	}
	if i < len(e.taskMemo) {
		e.taskMemo[i] = uint8(hits) | taskKnown
	}
	return hits
}

// taskKnown marks a taskMemo entry read.
const taskKnown = 1 << 7

// taskGateOpen reports whether the gated rule r can fire on the call:
// a command of its programs has a word of one of its groups.
func (e *Env) taskGateOpen(r *prepared) bool {
	return e.anyCmdOf(r, func(i int) bool { return e.taskHits(i)&r.task != 0 })
}
