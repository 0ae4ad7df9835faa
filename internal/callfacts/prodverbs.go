package callfacts

import "strings"

// The words a program says its act with, for the production destroy
// default (policy/pack_prod_destroyverb.go): a program warden has no
// table for is read by its first words, a console by the command in its
// quoted operand, an IBM i command by its verb prefix. Exported here so
// the policy reads them the same way the unknown-program reading does.

// VerbWords are the words where c says its act: its positional words,
// or a console's quoted command split into words (cgr-console
// 'balance_set …', system 'CLRLIB LIB(X)').
func (c *Cmd) VerbWords() []string { return c.verbPos() }

// OptionValueOf: p stands as the value of the option before it in args
// (--root URL, --profile acme), so it names no act.
func OptionValueOf(args []string, p string) bool { return optionValue(args, p) }

// CLDestroy is the verb of an IBM i command that deletes or clears
// (CLRLIB: clear, DLTLIB: delete), "" for any other word.
func CLDestroy(w string) string { return clVerb(strings.ToUpper(w), true) }

// DestroyWordSet: the destroy verbs of verbs.txt (delete, purge,
// uninstall, wipe, teardown…), and ReadWordSet its read words.
func DestroyWordSet() map[string]bool { return destroyVerbs().verbs }
func ReadWordSet() map[string]bool    { return destroyVerbs().reads }
