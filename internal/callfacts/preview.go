package callfacts

import "strings"

// A preview is told by the command's structure, whatever the program:
// an option that only checks or previews, spelled in any CLI's style
// (--dry_run, --dryRun, -WhatIf, --validate_only true, --checkonly,
// --validate-only), or a verb that previews (az deployment … what-if).
// Such a command reports what would change and changes nothing, so the
// rules about changes, deploys and publishing leave it alone.

// previewOptions are option names with dashes, underscores and case
// taken away.
var previewOptions = map[string]bool{"dryrun": true, "whatif": true, "validateonly": true, "checkonly": true, "noop": true,
	"simulate": true, "noact": true, "previewonly": true, "planonly": true,
	// a preview run (gcloud deployment-manager … --preview), a check
	// without a submit (fastlane deliver --verify_only), a change set made
	// and left for review (aws cloudformation deploy --no-execute-changeset)
	"preview": true, "verifyonly": true, "noexecutechangeset": true,
	// a deploy that only shows its diff (kapp deploy --diff-run)
	"diffrun": true,
	// Chef's preview run (chef-client --why-run)
	"whyrun": true,
	// s29: a dry run whose report goes to a file (Flyway's
	// -dryRunOutput=/tmp/plan.sql writes the SQL it would run, runs none)
	"dryrunoutput": true, "dryrunfile": true, "dryrunout": true, "dryrunreport": true}

// previewVerbs are subcommand words that preview a change.
var previewVerbs = map[string]bool{"what-if": true, "whatif": true}

// previewForm: c carries a preview option not set to false, or a
// preview verb among its first words. The last such option decides
// (kubectl --dry-run=client --dry-run=none deletes), and only a real
// option counts: not one after "--", nor the value of a global option
// before it (--context --dry-run names a context).
func previewForm(c *Cmd) bool {
	preview := false
	for i, a := range c.Args {
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !previewOption(name) || i > 0 && c.tool().globals[c.Args[i-1]] {
			continue
		}
		if !hasVal && i+1 < len(c.Args) {
			if v := strings.ToLower(c.Args[i+1]); v == "true" || v == "false" || v == "0" || v == "1" || v == "yes" || v == "no" {
				val = v
			}
		}
		preview = !previewOff(val)
	}
	if preview {
		return true
	}
	for i, p := range c.Pos {
		if i > 3 {
			break
		}
		if previewVerbs[strings.ToLower(p)] || keywordPreview(c, p) {
			return true
		}
	}
	return false
}

// keywordPreview: p is a keyword argument that asks for a preview, set
// true — dry_run=True, noop=yes, and Salt's test=True (salt '*'
// state.apply nginx test=True reports what would change) — and not the
// value of an option before it (-e test=true is a variable).
func keywordPreview(c *Cmd, p string) bool {
	name, val, ok := strings.Cut(p, "=")
	if !ok || !(previewOption(name) || strings.EqualFold(name, "test")) {
		return false
	}
	switch strings.ToLower(strings.Trim(val, `"'`)) {
	case "true", "yes", "1", "on":
		return !optionBefore(c.Args, p)
	}
	return false
}

// previewOption: name, without dashes and underscores and in lower case
// (dry_run, dryRun, DryRun: dryrun), is one of previewOptions. It is
// read for every option of every command, so it does not allocate: a
// map lookup of string(bytes) copies nothing.
func previewOption(name string) bool {
	if len(name) < 4 || len(name) > 24 {
		return false
	}
	var b [24]byte
	n := 0
	for i := 0; i < len(name); i++ {
		ch := name[i]
		switch {
		case ch == '-' || ch == '_':
			continue
		case ch >= 'A' && ch <= 'Z':
			ch += 'a' - 'A'
		}
		b[n] = ch
		n++
	}
	return previewOptions[string(b[:n])]
}

// previewOff: the value turns the preview off (false, none: kubectl's
// --dry-run=none runs for real) or is not known until the command runs
// (--dry-run=$MODE), which proves nothing.
func previewOff(val string) bool {
	switch v := strings.ToLower(strings.Trim(val, `"'`)); v {
	case "false", "0", "no", "off", "none":
		return true
	default:
		return strings.ContainsAny(v, "$`")
	}
}

// hasEnabled reports whether c is given one of opts (bare, or
// OPT=VALUE with a value that does not turn it off), the last one
// deciding, before any "--" and not as the value of a global option.
// A separate word after a bare option is an operand (kubectl's
// --dry-run false still previews).
func (c *Cmd) hasEnabled(opts ...string) bool {
	on := false
	for i, a := range c.Args {
		if a == "--" {
			break
		}
		if len(a) < 3 || a[0] != '-' || a[1] != '-' {
			continue // every option asked about is a long one
		}
		name, val, _ := strings.Cut(a, "=")
		for _, o := range opts {
			if name == o && (i == 0 || !c.tool().globals[c.Args[i-1]]) {
				on = !previewOff(val)
			}
		}
	}
	return on
}
