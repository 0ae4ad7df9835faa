package policy

// The subcommand gates (subgates.go), indexed once per engine: which
// gated rules a line opens is read from its commands, a lookup or two
// each, instead of each gated rule scanning the line's commands in turn
// (an everyday git status met some thirty gated git rules, each scanning).
// It opens exactly the rules gateOpen opens (TestSubGateIndexAgrees).

// subGateIndex is, for the gated rules (prepared.subs), by position in
// Engine.rules: the rules a command opens by its program and first word,
// and those it opens by naming another program of theirs.
type subGateIndex struct {
	bySub   map[string]map[string]ruleSet // gated program → subcommand → rules
	byOther map[string]ruleSet            // program → rules gated on another program that name it too
}

// newSubGateIndex indexes the gates of indexed, n being the number of
// the engine's rules (the sets' size).
func newSubGateIndex(indexed []*prepared, n int) *subGateIndex {
	x := &subGateIndex{bySub: map[string]map[string]ruleSet{}, byOther: map[string]ruleSet{}}
	for _, r := range indexed {
		if r.subs == nil {
			continue
		}
		m := x.bySub[r.subProg]
		if m == nil {
			m = map[string]ruleSet{}
			x.bySub[r.subProg] = m
		}
		for _, s := range r.subs {
			if m[s] == nil {
				m[s] = newRuleSet(n)
			}
			m[s].add(r.idx)
		}
		for _, c := range r.Cmds {
			if c == r.subProg {
				continue
			}
			if x.byOther[c] == nil {
				x.byOther[c] = newRuleSet(n)
			}
			x.byOther[c].add(r.idx)
		}
	}
	return x
}

// open fills open (cleared by the caller) with the gated rules the line
// f opens: a command of their gated program with one of their
// subcommands, or a command of another of their programs.
func (x *subGateIndex) open(f *Facts, open ruleSet) {
	for i := range f.Commands {
		c := &f.Commands[i]
		if m := x.bySub[c.Name]; m != nil {
			if s := m[c.Sub(0)]; s != nil {
				open.or(s)
			}
		}
		if s := x.byOther[c.Name]; s != nil {
			open.or(s)
		}
	}
}
