package callfacts

// indirectAlts: ${!v} is the value of the variable whose name v holds
// (for v in AWS_SECRET_ACCESS_KEY GITHUB_TOKEN; do echo "${!v}"; done
// prints each secret): each name v may hold read as $NAME, or its
// value when the line set it. nil when a value of v is no variable
// name (the reading falls back to the $v marker).
func (n *normalizer) indirectAlts(vals []string) []string {
	if len(vals) == 0 || len(vals) > 32 {
		return nil
	}
	var out []string
	for _, v := range vals {
		if !varName(v) {
			return nil
		}
		if got, ok := n.vars[v]; ok {
			out = append(out, got...)
		} else {
			out = append(out, "$"+v)
		}
	}
	return out
}

// varName: s is a shell variable's name.
func varName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
