package policy

import (
	"strconv"
	"strings"
)

// withResolved reads line with the constants it assigns itself put in
// (DB=shop_dev; dropdb -h localhost "$DB" reads as dropdb -h localhost
// shop_dev), as the commands' arguments already are: text rules then see
// the database, host or branch the line names through a variable. Only
// variables the reading found to hold one literal value are put in.
func withResolved(e *Env, line string) string {
	if !strings.Contains(line, "$") {
		return line
	}
	for _, d := range e.F.Derivation {
		if !strings.HasPrefix(d, "$") {
			continue
		}
		i := strings.Index(d, " holds ")
		if i < 0 {
			continue
		}
		name := d[1:i]
		v, err := strconv.Unquote(d[i+len(" holds "):])
		if err != nil || name == "" || strings.ContainsAny(v, "$ \n\"'") || v == "" {
			continue
		}
		line = strings.NewReplacer(`"$`+name+`"`, v, `"${`+name+`}"`, v, `${`+name+`}`, v).Replace(line)
		line = replaceBareVar(line, name, v)
	}
	return line
}

// replaceBareVar puts v for $name where no word character follows.
func replaceBareVar(line, name, v string) string {
	key := "$" + name
	var b strings.Builder
	for {
		i := strings.Index(line, key)
		if i < 0 {
			b.WriteString(line)
			return b.String()
		}
		j := i + len(key)
		if j < len(line) && (line[j] == '_' || line[j] >= 'a' && line[j] <= 'z' || line[j] >= 'A' && line[j] <= 'Z' || line[j] >= '0' && line[j] <= '9') {
			b.WriteString(line[:j])
		} else {
			b.WriteString(line[:i] + v)
		}
		line = line[j:]
	}
}
