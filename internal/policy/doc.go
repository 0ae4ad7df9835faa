// Package policy is warden's guard engine: built-in rule packs and user rules
// evaluated against a normalized tool call (Facts). Normalization parses
// shell commands with a real parser (mvdan.cc/sh) so rules match on the
// commands that would run, not on substrings of the text.
//
// Nothing here does work at package init: packs are Go tables built by the
// compiler, regexps and expressions are compiled on first use, and only the
// rules that can match the event, tool and command names are looked at.
package policy
