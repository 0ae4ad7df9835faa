package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// The zone table lets a line write under home: a download into
// ~/Downloads, a new file in ~/notes. What it cannot see is whether the
// write replaces what the user already has. These rules read that from
// the command itself: a file the same command reads, truncated by its
// own redirect before it is read (iconv F > F, sort F > F); files that
// exist, picked by a glob or a find and edited in place (sed -i, perl
// -pi, dos2unix); the permissions of a whole folder of the user's
// changed (chmod -R 700 ~/Documents/x).

// inPlaceEditors rewrite each file they are given when told to edit in
// place (the option is what makes the touch a write: callfacts reads it).
var inPlaceEditors = map[string]bool{"sed": true, "gsed": true, "perl": true, "ruby": true, "gawk": true, "awk": true,
	"dos2unix": true, "unix2dos": true, "mac2unix": true, "sd": true, "rpl": true, "ex": true, "vim": true, "nvim": true}

// permChangers change who may read, write or run files.
var permChangers = []string{"chmod", "chown", "chgrp"}

// viaProgram is the program of a touch's Via ("sed -i … ~/x" → sed),
// past a leading sudo.
func viaProgram(via string) string {
	f := strings.Fields(via)
	for len(f) > 1 && (f[0] == "sudo" || f[0] == "doas") {
		f = f[1:]
	}
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// pickedExisting: p stands for files that exist, chosen by a pattern: a
// glob, or what find or xargs feeds ({}, $INPUT).
func pickedExisting(p string) bool {
	return globbed(p) || strings.Contains(p, "{}") || strings.Contains(p, "$INPUT")
}

// readTruncated finds a command whose output redirect (>, >|, &>)
// names a file the same command reads (an argument or its < input):
// the shell empties the file before the command starts, so the command
// reads nothing and the file is lost. "" for none.
func readTruncated(e *Env) string {
	for _, r := range e.F.Redirects {
		if r.Op != ">" && r.Op != ">|" && r.Op != "&>" || r.Cmd == "" || !strings.HasPrefix(r.Target, "/") || strings.HasPrefix(r.Target, "/dev/") {
			continue
		}
		if callfacts.ZoneOf(r.Target, e.F.Home, e.F.Project) == callfacts.ZoneTemp {
			continue // a scratch file: nothing of the user's is lost
		}
		for _, in := range e.F.Redirects {
			if in.Op == "<" && in.Cmd == r.Cmd && in.Target == r.Target {
				return r.Cmd + " reads " + homeRel(r.Target, e.F.Home) + " and its own > empties it first: the file is lost"
			}
		}
		for _, p := range e.F.Paths {
			if p.Path == r.Target && p.Via == r.Cmd && (p.Op == callfacts.OpRead || p.Op == callfacts.OpArg) {
				return r.Cmd + " reads " + homeRel(r.Target, e.F.Home) + " and its own > empties it first: the file is lost"
			}
		}
	}
	return ""
}

func localeffHomeDataRules() []Rule {
	return []Rule{
		{ID: "core.zones:read-truncated", Mode: Deny, Tools: shellTools, On: On(FactRedirect),
			Desc:  "A command whose output is redirected onto the file it reads (iconv -f latin1 -t utf-8 F > F, sort F > F, jq . F > F): the shell truncates F before the command starts, so F ends empty; a scratch file in temp stays allowed",
			Match: readTruncated,
			Catch: []string{"iconv -f latin1 -t utf-8 ~/corpora/x.xml > ~/corpora/x.xml", "sort -u ~/lists/emails.txt > ~/lists/emails.txt", "jq '.items' data/config.json > data/config.json",
				"tr -d '\\r' < ~/notes/todo.txt > ~/notes/todo.txt", "uniq /srv/app/hosts.txt > /srv/app/hosts.txt", "xmllint --format ~/Documents/thesis.xml > ~/Documents/thesis.xml"},
			Allow: []string{"iconv -f latin1 -t utf-8 ~/corpora/x.xml > ~/corpora/x.utf8.xml", "sort -u emails.txt > /tmp/emails.txt", "jq '.items' data/config.json | sponge data/config.json",
				"sort /tmp/a.txt > /tmp/a.txt", "cat ~/notes/a.txt >> ~/notes/b.txt", "tr -d '\\r' < in.txt > out.txt"}},
		{ID: "core.zones:home-data-batch-edit", Mode: Deny, Tools: shellTools, On: On(FactTouch),
			Desc: "The user's existing files under home, picked by a glob or a find, edited in place (find ~/corpora -name '*.conllu' | xargs sed -i …, perl -pi -e … ~/notes/*.md, dos2unix ~/Documents/*.csv): every match is rewritten where the user keeps it, with no copy; a new file written under home stays with the zone table",
			Match: func(e *Env) string {
				for _, tc := range e.Touches() {
					if tc.Effect != callfacts.PathWrite && tc.Effect != callfacts.PathOverwrite || !pickedExisting(tc.Path) || !inPlaceEditors[viaProgram(tc.Via)] {
						continue
					}
					if tc.Zone == callfacts.ZoneHomeData && !homeScratchFolder(strings.TrimPrefix(tc.Path, e.F.Home+"/")) && !ownScratch(tc.Path) {
						return tc.Via + " edits every file matching " + homeRel(tc.Path, e.F.Home) + " in place, the user's own files"
					}
				}
				return ""
			},
			Catch: []string{"find ~/Documents/letters -name '*.txt' | xargs sed -i 's/Dear/Hi/'", "perl -pi -e 's/foo/bar/' ~/notes/*.md", "perl -i -pe 's/\\r//' ~/Documents/exports/*.csv",
				"sed -i '1d' ~/research/interviews/*.txt", "find ~/Music -name '*.m3u' -exec sed -i 's|/old/|/new/|' {} +", "ruby -pi -e 'gsub(/x/, \"y\")' ~/writing/*.tex"},
			Allow: []string{"sed -i 's/foo/bar/' src/*.go", "sed -n 1p ~/notes/*.md", "perl -pi -e 's/a/b/' /tmp/work/*.txt", "sed -i 's/a/b/' ~/notes/todo.md",
				"find ~/Documents -name '*.txt' | xargs grep -l Dear", "dos2unix ~/scratch/*.csv", "cp ~/notes/*.md build/ && sed -i 's/a/b/' build/*.md"}},
		{ID: "core.zones:unknown-batch-edit", Mode: Ask, Tools: shellTools, On: On(FactTouch),
			Desc: "Files under a folder the line takes from a variable it does not set (perl -pi -e … \"$CORPUS_DIR\"/*.tsv, sed -i … $DATA/*.csv), picked by a glob and edited in place: where they are, and whose they are, the line does not show",
			Match: func(e *Env) string {
				for _, tc := range e.Touches() {
					if tc.Zone != callfacts.ZoneUnknown || tc.Effect != callfacts.PathWrite && tc.Effect != callfacts.PathOverwrite || !globbed(tc.Path) || !inPlaceEditors[viaProgram(tc.Via)] {
						continue
					}
					return tc.Via + " edits every file matching " + tc.Path + " in place, in a folder the line does not show"
				}
				return ""
			},
			Catch: []string{"sed -i 's/a/b/' \"$DATA_DIR\"/*.csv", "perl -pi -e 's/x/y/' $CORPUS/*.txt", "sed -i 's/a/b/' \"$EXPORTS\"/*.tsv", "sed -i '/^#/d' $CONF_ROOT/*.conf", "ruby -pi -e 'sub(/a/,\"b\")' $NOTES/*.md", "sed -i.bak 's/a/b/' ${ROOT}/*.ini"},
			Allow: []string{"sed -i 's/a/b/' src/*.go", "sed -n 1p \"$DATA_DIR\"/*.csv", "grep -l x $CORPUS/*.txt", "D=build; sed -i 's/a/b/' \"$D\"/*.txt", "sed -i 's/a/b/' \"$FILE\"", "wc -l \"$DATA_DIR\"/*.csv"}},
		cmdRule("core.zones:home-data-perms", Ask, "The permissions or owner of a whole folder of the user's data changed (chmod -R 700 ~/Documents/contracts, chown -R root ~/Pictures): who may read it, or whether the user still can, changes for every file in it; scratch and build folders stay allowed", permChangers,
			func(e *Env, c *Cmd) string {
				if !c.Has("-R", "--recursive") {
					return ""
				}
				for i, a := range c.Pos {
					if i == 0 {
						continue // the mode or owner
					}
					p := e.abs(c, a)
					if callfacts.ZoneOf(p, e.F.Home, e.F.Project) != callfacts.ZoneHomeData || ownScratch(p) || homeScratchFolder(strings.TrimPrefix(p, e.F.Home+"/")) {
						continue
					}
					return c.Name + " -R changes the permissions of every file in " + homeRel(p, e.F.Home) + ", the user's own data: " + c.String()
				}
				return ""
			},
			[]string{"chmod -R 700 ~/Documents/contracts", "chown -R root:root ~/Pictures/2023", "sudo chmod -R 000 ~/Music", "chgrp -R staff ~/research/interviews", "chmod -R go+rwx ~/Documents", "chmod --recursive a-w ~/thesis"},
			[]string{"chmod -R 755 build/", "chmod 600 ~/Documents/a.pdf", "chmod -R u+w /tmp/x", "ls -lR ~/Documents", "chmod +x ~/Documents/run.sh", "chown -R dev:dev ./vendor"}),
	}
}
