package datatable

import "strings"

// Names is a set of names written in a table: exact names, NAME* (any
// name that starts so) and *NAME (any name that ends so). Tables of
// directory names (generated folders, tools' scratch folders) share it,
// so a pattern means the same in each.
type Names struct {
	exact              map[string]bool
	prefixes, suffixes []string
}

// Add puts one table word in the set; a * anywhere but at one end, or a
// / (a name is one path element), is an error naming the word.
func (n *Names) Add(w string) error {
	if n.exact == nil {
		n.exact = map[string]bool{}
	}
	switch {
	case strings.HasSuffix(w, "*") && len(w) > 1 && !strings.ContainsAny(w[:len(w)-1], "*/"):
		n.prefixes = append(n.prefixes, w[:len(w)-1])
	case strings.HasPrefix(w, "*") && len(w) > 1 && !strings.ContainsAny(w[1:], "*/"):
		n.suffixes = append(n.suffixes, w[1:])
	case strings.ContainsAny(w, "*/"):
		return errNameWord(w)
	default:
		n.exact[w] = true
	}
	return nil
}

// Has reports whether name is in the set.
func (n Names) Has(name string) bool {
	if n.exact[name] {
		return true
	}
	for _, p := range n.prefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	for _, s := range n.suffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

type errNameWord string

func (e errNameWord) Error() string {
	return "\"" + string(e) + "\": a name (one path element), with * only at its start or its end"
}
