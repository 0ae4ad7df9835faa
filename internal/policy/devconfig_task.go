package policy

import (
	"path"
	"strings"
)

// devConfigTask: a database tool's destroying task (flyway clean,
// liquibase dropAll) run with a config file the project names for
// development or tests (flyway -configFiles=db/flyway.dev.conf,
// liquibase --defaults-file=liquibase.local.properties): the database is
// the one the project's dev config points at, rebuilt by the migrations,
// as a test database is. Not when the line also names a server or a URL
// (the line shows another target), a production, shared or staging word,
// or a config whose name says nothing of dev (flyway.conf).
func devConfigTask(line string) bool {
	if strings.Contains(line, "://") || prodMarker.MatchString(line) || namesDBHost.MatchString(line) {
		return false
	}
	for _, a := range strings.Fields(line) {
		k, v, ok := strings.Cut(a, "=")
		if !ok || !devConfigOpts[strings.ToLower(strings.TrimLeft(k, "-"))] {
			continue
		}
		dev := false
		for _, f := range strings.Split(strings.Trim(v, `"'`), ",") {
			ws := ownNameWords(path.Base(f))
			fdev := false
			for _, w := range ws {
				switch {
				case sharedCloudEnvWords[w] || sharedStackWords[w]:
					return false
				case devOnlyWords[w] || w == "local" || testWords[w] && w != "preview" && w != "review":
					fdev = true
				}
			}
			if !fdev {
				return false // -configFiles=flyway.conf,flyway.dev.conf: the shared one may set the URL
			}
			dev = true
		}
		return dev
	}
	return false
}

// devConfigOpts name a database tool's config file (given with =).
var devConfigOpts = map[string]bool{"configfiles": true, "config-files": true, "configfile": true, "config": true, "defaults-file": true, "defaultsfile": true}
