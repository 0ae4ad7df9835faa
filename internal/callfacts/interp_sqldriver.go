package callfacts

import (
	"strings"

	"github.com/warden-dev/warden/internal/lazyre"
)

// s28: a database driver called from interpreter code is the database's
// own client: psycopg2.connect(host='gis-staging').cursor().execute(
// 'UPDATE …'), PHP's new PDO('pgsql:host=gis-staging;…')->exec('UPDATE
// …'), mysql.connector.connect(host='db1.acme.io').cursor().execute(
// 'DELETE …') send the statement to that server as psql -h HOST -c '…'
// or mysql -h HOST -e '…' would. The statement that writes (UPDATE,
// INSERT, DELETE, ALTER, DROP, TRUNCATE, GRANT, …) is spelled as that
// client's line, and the SQL readings judge it on the server as they
// judge the client's: this machine's server or a dev database stays
// allowed, a shared one asks, production or an every-row delete denies.

// sqlDriverHost: the server a driver connects to (host='x', host: 'x', a
// DSN's host=x, a URL's @x).
var sqlDriverHost = lazyre.New(`(?i)\bhost['"]?\s*[:=]\s*['"]?([\w.-]+)|\b(?:postgres(?:ql)?|mysql|mariadb)(?:\+\w+)?://[^@/'"\s]*@([\w.-]+)`)

// sqlDriverCall: a driver's call that runs a statement, at its literal's
// opening quote.
var sqlDriverCall = lazyre.New(`(?:\.|->)\s*(?:execute|executemany|exec|query|do|run|prepare|executescript)\s*\(\s*[rfbu]?(?:"""|'''|"|'|` + "`" + `)`)

// sqlWriteStmt: a statement that changes what the server holds.
var sqlWriteStmt = lazyre.New(`(?i)^\s*(?:update|insert|delete|alter|drop|truncate|grant|revoke|create|merge|replace|upsert)\b`)

// sqlDriverKind: the client whose line the driver's call is: psql for
// PostgreSQL's drivers, mysql for MySQL's and MariaDB's, "" for others.
func sqlDriverKind(code string) string {
	l := strings.ToLower(code)
	switch {
	case strings.Contains(l, "mysql") || strings.Contains(l, "mariadb"):
		return "mysql"
	case strings.Contains(l, "psycopg") || strings.Contains(l, "pgsql") || strings.Contains(l, "postgres") || strings.Contains(l, "asyncpg") || strings.Contains(l, "require('pg')") || strings.Contains(l, `require("pg")`) || strings.Contains(l, "pg8000"):
		return "psql"
	}
	return ""
}

// quotedAt is the text of the literal whose opening quote ends at i
// (q the quote), backslash escapes undone; "" when it does not close.
func quotedAt(code string, i int, q string) string {
	var b strings.Builder
	for j := i; j < len(code); j++ {
		if code[j] == '\\' && j+1 < len(code) {
			b.WriteByte(code[j+1])
			j++
			continue
		}
		if strings.HasPrefix(code[j:], q) {
			return b.String()
		}
		b.WriteByte(code[j])
	}
	return ""
}

// sqlDriverEffects is the client lines of the statements code sends to a
// named server through a driver.
func sqlDriverEffects(code string) []string {
	if !strings.Contains(code, "host") && !strings.Contains(code, "://") {
		return nil
	}
	kind := sqlDriverKind(code)
	if kind == "" {
		return nil
	}
	m := sqlDriverHost.FindStringSubmatch(code)
	if m == nil {
		return nil
	}
	host := m[1] + m[2]
	var out []string
	for _, loc := range sqlDriverCall.FindAllStringIndex(code, 8) {
		open := loc[1] - 1
		q := code[open:loc[1]]
		if strings.HasSuffix(code[:loc[1]], `"""`) || strings.HasSuffix(code[:loc[1]], `'''`) {
			q = code[loc[1]-3 : loc[1]]
		}
		stmt := strings.TrimSpace(quotedAt(code, loc[1], q))
		if stmt == "" || !sqlWriteStmt.MatchString(stmt) {
			continue
		}
		stmt = strings.Join(strings.Fields(stmt), " ")
		if kind == "mysql" {
			out = append(out, argvCode([]string{"mysql", "-h", host, "-e", stmt}))
		} else {
			out = append(out, argvCode([]string{"psql", "-h", host, "-c", stmt}))
		}
		if len(out) == 2 {
			break
		}
	}
	return out
}
