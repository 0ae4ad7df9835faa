package callfacts

import "strings"

// FileEditRemove reads a file editor's remove (verbs.txt edits,
// edits-inout: metaflac --remove-all-tags, pdfcpu pages remove, crudini
// --del): the remove verb or option ("" for none, a dry run or help) and
// the files it rewrites in place. It takes something out of the files it
// is given on this machine — an edit of those files, judged by their
// zone — where the same word from a program warden has no table for
// would be read as a remote destroy (UnknownDestroy).
func (c *Cmd) FileEditRemove() (string, []string) {
	t := destroyVerbs()
	inout := t.editsInOut[c.Name]
	if !inout && !t.edits[c.Name] || c.DryRun() || c.asksHelp() {
		return "", nil
	}
	v := c.destroyWord()
	if v == "" {
		v = c.hiddenVerb(t.verbs, true)
	}
	if v == "" {
		return "", nil
	}
	if c.Has("-o", "--output", "--out", "--outfile", "--output-file") {
		return v, nil // the edit goes to a new file; the given ones stay
	}
	var files []string
	for _, p := range c.Pos {
		if !strings.HasPrefix(p, "-") && (strings.ContainsAny(p, "/*?{") || strings.Contains(p, ".") && !strings.HasPrefix(p, ".") && PathLike(p)) {
			files = append(files, p)
		}
	}
	if inout && len(files) != 1 {
		return v, nil // IN OUT: the edited copy is written to OUT
	}
	return v, files
}

// FileEditors are the programs of verbs.txt edits and edits-inout.
func FileEditors() []string {
	t := destroyVerbs()
	out := make([]string, 0, len(t.edits)+len(t.editsInOut))
	for n := range t.edits {
		out = append(out, n)
	}
	for n := range t.editsInOut {
		out = append(out, n)
	}
	return out
}
