package policy

import (
	"strings"
	"unicode"
)

// camelProd: a connection, DSN or alias name written in CamelCase or
// mixed case (PolicyProd, ProdDW, ClaimsPRD, LiveOrders) whose words
// include a production marker. prodWord needs a non-letter around
// "prod", so a name that marks its parts by case alone reads as prod
// here. Live counts only as the name's first word (LiveOrders, a
// live-orders DSN; a trailing Live is too often a feature name).
// Product, Produce, Productivity are one word each and stay apart.
func camelProd(n string) bool {
	n = strings.Trim(n, `"'`)
	if len(n) < 5 || len(n) > 48 || strings.ToUpper(n) == n || strings.ToLower(n) == n {
		return false // all one case: prodWord and capsSuffix read those
	}
	for _, r := range n {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-') {
			return false
		}
	}
	parts := connNameWords(n)
	if len(parts) < 2 {
		return false
	}
	for i, p := range parts {
		switch strings.ToLower(p) {
		case "prod", "prd", "production":
			return true
		case "live":
			if i == 0 {
				return true
			}
		}
	}
	return false
}

// connNameWords splits PolicyProd into Policy, Prod; ProdDW into Prod, DW;
// ClaimsPRD2 into Claims, PRD; separators and digits split too.
func connNameWords(s string) []string {
	var out []string
	rs := []rune(s)
	start := -1
	flush := func(i int) {
		if start >= 0 && i > start {
			out = append(out, string(rs[start:i]))
		}
		start = -1
	}
	for i, r := range rs {
		if !unicode.IsLetter(r) {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := rs[i-1]
		if unicode.IsUpper(r) && unicode.IsLower(prev) {
			flush(i) // policyProd: a lower then an upper letter
			start = i
		} else if unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1]) && i-1 > start {
			flush(i) // PRDClaims: the last capital of a run starts the next word
			start = i
		}
	}
	flush(len(rs))
	return out
}
