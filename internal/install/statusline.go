package install

// The status line has one command, so warden never replaces someone else's:
// it wraps it (`warden statusline --wrap '<old>'` runs the old command and
// appends warden's segment) and uninstall unwraps it back to the old
// command, byte for byte.

// wrapStatusLine sets warden's status line, wrapping an existing one.
func wrapStatusLine(s *Settings, bin string) (bool, error) {
	raw, ok := s.Root.Get("statusLine")
	if !ok || kindOf(raw) == "null" {
		sl := &Object{}
		sl.Set("type", rawJSON("command"))
		sl.Set("command", rawJSON(StatusLineCommand(bin)))
		sl.Set("padding", rawJSON(0))
		s.Root.Set("statusLine", sl)
		return true, nil
	}
	if kindOf(raw) != "an object" {
		return false, s.shapeError("statusLine", "an object", raw)
	}
	sl, err := parseObject(raw)
	if err != nil {
		return false, err
	}
	cmdRaw, _ := sl.Get("command")
	old, _ := stringValue(cmdRaw)
	var next string
	switch inv, ok := parseWarden(old); {
	case ok && inv.sub() == "statusline":
		next = inv.withProgram(bin) // already warden's: only follow the binary
	case old == "":
		next = StatusLineCommand(bin)
	default:
		next = wrapCommand(bin, old)
	}
	if next == old {
		return false, nil
	}
	if t, _ := sl.Get("type"); t == nil {
		sl.Set("type", rawJSON("command"))
	}
	sl.Set("command", rawJSON(next))
	s.Root.Set("statusLine", sl)
	return true, nil
}

// unwrapStatusLine restores the wrapped command, or removes warden's own
// status line. A status line that is not warden's is left alone.
func unwrapStatusLine(s *Settings) bool {
	raw, ok := s.Root.Get("statusLine")
	if !ok || kindOf(raw) != "an object" {
		return false
	}
	sl, err := parseObject(raw)
	if err != nil {
		return false
	}
	cmdRaw, _ := sl.Get("command")
	cmd, _ := stringValue(cmdRaw)
	inv, ok := parseWarden(cmd)
	if !ok || inv.sub() != "statusline" {
		return false
	}
	if old, ok := inv.wrappedCommand(); ok && old != "" {
		sl.Set("command", rawJSON(old))
		s.Root.Set("statusLine", sl)
	} else {
		s.Root.Delete("statusLine")
	}
	return true
}
