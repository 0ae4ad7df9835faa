package callfacts

// dryMemo is DryRun cached on the command it was read of. DryRun reads
// only the name, arguments, options and operands, so the answer is kept
// with their identity (the name, and each slice's first element and
// length): a copy a rule makes shares the answer while it shares those,
// and an edit of any of them (the normalizer rewrites a PowerShell
// alias's name and options in place; a rule's copy takes other
// arguments) reads afresh. No Cmd address is kept: storing a pointer to
// the Cmd in itself would move every Cmd that asks to the heap. Facts
// are read by one goroutine at a time (one call's evaluation), as the
// engine's per-call caches are.
type dryMemo struct {
	name                string
	args, flags, pos    *string
	nArgs, nFlags, nPos int32
	state               uint8 // 0 not read, 1 false, 2 true
}

// firstElem is the address of s's first element, nil when s is empty:
// with len(s) it tells a slice from any other.
func firstElem(s []string) *string {
	if len(s) == 0 {
		return nil
	}
	return &s[0]
}

func (m *dryMemo) get(c *Cmd) (v, ok bool) {
	if m.state == 0 || int(m.nArgs) != len(c.Args) || int(m.nFlags) != len(c.Flags) || int(m.nPos) != len(c.Pos) ||
		m.args != firstElem(c.Args) || m.flags != firstElem(c.Flags) || m.pos != firstElem(c.Pos) || m.name != c.Name {
		return false, false
	}
	return m.state == 2, true
}

func (m *dryMemo) set(c *Cmd, v bool) {
	*m = dryMemo{name: c.Name, args: firstElem(c.Args), flags: firstElem(c.Flags), pos: firstElem(c.Pos),
		nArgs: int32(len(c.Args)), nFlags: int32(len(c.Flags)), nPos: int32(len(c.Pos)), state: 1}
	if v {
		m.state = 2
	}
}

// specMemo is c.tool() kept with the name it was looked up for: a
// copy a rule makes under another name, or a name rewritten in place,
// looks it up afresh. As dryMemo, read by one goroutine at a time.
type specMemo struct {
	name string
	spec *toolSpec
}

// tool is tool(c.Name), looked up once per command and name.
func (c *Cmd) tool() *toolSpec {
	if m := &c.spec; m.spec != nil && m.name == c.Name {
		return m.spec
	}
	c.spec = specMemo{name: c.Name, spec: tool(c.Name)}
	return c.spec.spec
}
