package policy

import (
	"strings"
)

// consoleFeedRule: text fed on the input of a hosted platform's database
// console (heroku redis:cli -a app <<< 'FLUSHALL', dokku postgres:connect
// db <<EOF … DROP TABLE …): the console runs each line on the app's
// database, as redis-cli or psql run a here-document, but the platform's
// CLI is not a database client the SQL and redis rules know. The app's
// environment is not on the line; a change there asks. Reads (GET, KEYS,
// SELECT, INFO) stay allowed. The consoles and words are data
// (policy/remoteops.txt feed-console, feed-change).
func consoleFeedRule() Rule {
	return cmdRuleIf("external.systems:console-feed", Ask, "Commands fed on the input of a hosted platform's database console (heroku redis:cli <<< 'FLUSHALL', dokku postgres:connect db <<EOF DROP TABLE …): they change the app's database, whichever environment it is; reads stay allowed; the words are data (policy/remoteops.txt feed-console, feed-change)", feedConsoleNames(),
		func(e *Env, c *Cmd) bool { return c.Heredoc != "" },
		func(e *Env, c *Cmd) string {
			if onlyHelp(c) || !feedConsole(c) {
				return ""
			}
			change := opsList("feed-change")
			for _, st := range strings.FieldsFunc(c.Heredoc, func(r rune) bool { return r == '\n' || r == ';' }) {
				f := strings.Fields(strings.ToLower(st))
				if len(f) > 0 && change[strings.Trim(f[0], `"'`)] {
					return c.Name + " " + strings.Join(c.Pos[:min(len(c.Pos), 2)], " ") + " runs " + strings.TrimSpace(st) + " on the app's database: " + c.String()
				}
			}
			return ""
		},
		[]string{"heroku redis:cli -a shop --confirm shop <<< 'FLUSHDB'", "dokku postgres:connect orders-db <<< 'DROP TABLE carts;'", "fly redis connect <<EOF\nDEL session:1\nEOF"},
		[]string{"heroku redis:cli -a shop <<< 'INFO memory'", "dokku postgres:connect orders-db <<< 'SELECT count(*) FROM carts;'", "heroku redis:cli -a shop"})
}

// feedConsoleNames: the programs of feed-console's entries.
func feedConsoleNames() []string {
	seen := map[string]bool{}
	var out []string
	for _, k := range opsWords("feed-console") {
		n, _, _ := strings.Cut(k, "/")
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// feedConsole: c's program and its first one or two operands are a
// feed-console entry.
func feedConsole(c *Cmd) bool {
	l := opsList("feed-console")
	if len(c.Pos) == 0 {
		return false
	}
	k := c.Name + "/" + c.Pos[0]
	if l[k] {
		return true
	}
	return len(c.Pos) > 1 && l[k+"/"+c.Pos[1]]
}
