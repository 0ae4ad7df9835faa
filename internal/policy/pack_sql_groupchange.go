package policy

import "strings"

// A DELETE or UPDATE whose WHERE picks its rows only by a grouping
// column — a parent's key (DELETE FROM transactions WHERE store_id = 142,
// redcap_data WHERE project_id = 214) or an attribute many rows share
// (UPDATE items SET price = 0.01 WHERE dept = 'GROCERY', position WHERE
// book = 'ERCOT_WEST') — changes every row of a group, not one record.
// On a server the line names as production it is a bulk change of
// production data (external.systems:sql-remote denies it), like the
// class delete of pack_sql_classdelete.go. A WHERE that also names the
// row's own key (id, uuid, email, the table's own <name>_id, a name or
// code, a settings table's variable or key) stays a single-row change (ask), and so does any group change on
// a server the line does not name as production.

var (
	sqlGroupStmt = re(`(?is)^\s*(delete\s+from\s+([\w.$"` + "`" + `\[\]]+)|update\s+([\w.$"` + "`" + `\[\]]+)\s+set\s)`)
	sqlEqCol     = re(`(?i)([\w.$"` + "`" + `\[\]]+)\s*(=|\bin\s*\()`)
	sqlRowKeyCol = re(`(?i)^(id|uuid|guid|pk|key|email|e_?mail_address|slug|login|username|user_?name|name|\w+_name|code|\w+_code|sku|ref|reference|serial|hash|token|phone|rowid|oid|ctid|_id|variable|setting|option|param|parameter|property|preference|pref|attribute|\w+_key|\w+key)$`)
	sqlOtherOps  = re(`(?i)[<>]|\blike\b|\bbetween\b|\bexists\b|\bnot\b|\bis\s+null\b|\bselect\b|\bor\b`)
)

// groupChange is the first statement of text that changes a whole group
// of rows by equality on grouping columns only, "" for none.
func groupChange(text string) string {
	for _, st := range strings.Split(text, ";") {
		st = strings.TrimSpace(st)
		m := sqlGroupStmt.FindStringSubmatch(st)
		if m == nil {
			continue
		}
		table := m[2] + m[3]
		w := sqlWhere.FindStringSubmatch(st)
		if w == nil || sqlOtherOps.MatchString(w[1]) || sqlRollingWindow.MatchString(w[1]) {
			continue // no WHERE (everyRow judges it), a range, a pattern or a subquery (bulkWhere judges it)
		}
		cols := sqlEqCol.FindAllStringSubmatch(w[1], -1)
		if len(cols) == 0 {
			continue
		}
		group := true
		for _, cm := range cols {
			if rowKeyColumn(cm[1], table) || m[3] != "" && !groupColumn(cm[1]) {
				group = false // an UPDATE's WHERE may name the row by a natural key (counterparty = 'MACQ'): only a parent's key or a class word is a group
				break
			}
		}
		if group {
			return st
		}
	}
	return ""
}

// rowKeyColumn: col names one row of table — a key word, or the table's
// own id (orders.order_id, users.userid, redcap_data.data_id).
func rowKeyColumn(col, table string) bool {
	col = strings.ToLower(lastDotted(col))
	if sqlRowKeyCol.MatchString(col) {
		return true
	}
	base, ok := strings.CutSuffix(col, "_id")
	if !ok {
		base, ok = strings.CutSuffix(col, "id")
	}
	if !ok || base == "" {
		return false
	}
	t := strings.ToLower(lastDotted(table))
	for _, part := range append([]string{t}, strings.Split(t, "_")...) {
		if part == base || strings.TrimSuffix(part, "s") == base || strings.TrimSuffix(part, "es") == base || strings.TrimSuffix(part, "ies")+"y" == base {
			return true
		}
	}
	return false
}

// lastDotted is the last part of a dotted, quoted name (dbo.[position] → position).
func lastDotted(s string) string {
	s = strings.Trim(s, "`\"[]")
	if i := strings.LastIndex(s, "."); i >= 0 {
		s = s[i+1:]
	}
	return strings.Trim(s, "`\"[]")
}

// prodGroupChange is groupChange on a server the line names as
// production (the host, the connection, the database, or the host a
// remote shell runs the client on), "" otherwise.
func prodGroupChange(e *Env, c *Cmd, text string) string {
	st := groupChange(text)
	if st == "" {
		return ""
	}
	line := strings.ReplaceAll(e.F.Command, st, " ") // a production word in the statement's values is no place
	if !prodWord.MatchString(line) && !(c.Remote != "" && prodWord.MatchString(c.Remote)) {
		return ""
	}
	if where, named := sqlTarget(e, c, text); where != "remote" || !prodWord.MatchString(named+" "+c.Remote+" "+line) {
		return ""
	}
	return st
}

// sqlGroupWord: a column that sorts rows into groups many rows share.
var sqlGroupWord = re(`(?i)^(\w*(type|status|state|category|kind|class|group|source|channel|tier|level)|dept|department|book|region|store|branch|site|team|org|organisation|organization|tenant|country|city|warehouse|location|segment|market|portfolio|desk|brand|vendor|supplier|frequency|year|month|period|season)$`)

// groupColumn: col is a parent's key (store_id on another table: the
// row's own key was ruled out first) or a grouping word.
func groupColumn(col string) bool {
	col = strings.ToLower(lastDotted(col))
	return strings.HasSuffix(col, "_id") || strings.HasSuffix(col, "id") && len(col) > 2 || sqlGroupWord.MatchString(col)
}
