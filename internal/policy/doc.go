// Package policy is warden's guard engine: built-in rule packs and user rules
// evaluated against a normalized tool call (Facts). Normalization parses
// shell commands with a real parser (mvdan.cc/sh) so rules match on the
// commands that would run, not on substrings of the text.
//
// Nothing here does work at package init: packs are Go tables built by the
// compiler, regexps and expressions are compiled on first use, and only the
// rules that can match the event, tool and command names are looked at.
//
// Every built-in rule says which calls it can fire on (TestEveryRuleDeclaresWhenItRuns):
//   - Cmds, the programs it is about (cmdRule): it runs only when one of
//     them is in the call;
//   - otherwise a Trigger (trigger.go), in Rule.On or builtinTriggers: the
//     facts of the call it needs (a path written, under a home dot-directory
//     or /etc, inline code, a fed shell, a wrapper, a redirect, an effect on
//     a path…), programs, or words of the line; or Any("why") when it must
//     see every call of its tools;
//   - or only non-shell Tools (Write, Edit…).
//
// A trigger is a necessary condition of the rule's Match, never a verdict
// (TestTriggersAreSound checks it wherever the rule fires). Once an engine
// has served a few calls it indexes the triggers (triggerindex.go): sets of
// rules per fact, program and word, built from what the rules declare, so
// a call selects its rules in one pass (TestTriggerIndexAgrees: the same
// rules each trigger alone selects).
package policy
