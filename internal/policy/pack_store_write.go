package policy

import (
	_ "embed"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// Writes to a shared remote store. A file written (copied, synced,
// submitted, pushed) into storage others read — a bucket, a remote, a
// depot, a cluster's file system — whose name does not mark it as the
// developer's own or as dev/test: the user is asked, since only they know
// whether the bucket is a client's drop, a live site or their scratch
// space. The programs, their writing words and where their destination
// sits are data (policy/storewrites.txt), so a new tool is a line there,
// not a rule. Left alone: downloads (the remote place is the source),
// listings, dry runs, help, and destinations named for dev, test,
// scratch, sandbox, local or the user, or served on this machine
// (--endpoint-url http://localhost:9000). Production syncs that delete
// are denied by external.systems:sync-over-prod.

//go:embed storewrites.txt
var storeWritesText string

// storeWriter is one line of storewrites.txt.
type storeWriter struct {
	verbs []string        // subcommand or option words; nil for none
	where string          // last, first, url, always
	forms map[string]bool // url, vsi, colon, alias, any
}

var storeWriters = sync.OnceValue(func() map[string][]storeWriter {
	m := map[string][]storeWriter{}
	datatable.Must("storewrites.txt", storeWritesText, 4, func(l datatable.Line) error {
		w := storeWriter{where: l.Fields[2], forms: map[string]bool{}}
		if l.Fields[1] != "-" {
			w.verbs = strings.Split(l.Fields[1], ",")
		}
		switch w.where {
		case "last", "first", "url", "always":
		default:
			return l.Errorf("where %q: want last, first, url or always", w.where)
		}
		for _, f := range strings.Split(l.Fields[3], ",") {
			switch f {
			case "url", "vsi", "colon", "alias", "any", "-":
				w.forms[f] = true
			default:
				return l.Errorf("form %q: want url, vsi, colon, alias or any", f)
			}
		}
		m[l.Fields[0]] = append(m[l.Fields[0]], w)
		return nil
	})
	return m
})

// storeWriteTools are the programs of storewrites.txt: the rule's Cmds,
// so it runs only on a line that names one.
func storeWriteTools() []string {
	var out []string
	for n := range storeWriters() {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// storeVerbAt: the index in c.Pos after w's verb (0 for a program with
// no verb, or an option verb); -1 when c does not use a writing verb.
func storeVerbAt(c *Cmd, w storeWriter) int {
	if w.verbs == nil {
		return 0
	}
	for _, v := range w.verbs {
		if strings.HasPrefix(v, "-") {
			for _, a := range c.Args {
				if a == v || strings.HasPrefix(a, v+"=") {
					return 0
				}
			}
			continue
		}
		for i, p := range c.Pos[:min(3, len(c.Pos))] {
			if p == v {
				return i + 1
			}
		}
	}
	return -1
}

// storeRemote: operand p names a place in the store by one of forms.
func storeRemote(p string, forms map[string]bool) bool {
	l := strings.ToLower(p)
	switch {
	case p == "" || p == "-" || strings.ContainsAny(p, " \t\n=") && !strings.Contains(p, "://"):
		return false
	case forms["any"]:
		return !strings.HasPrefix(l, "file:")
	case strings.Contains(l, "://"):
		return forms["url"] && !strings.HasPrefix(l, "file://")
	case strings.HasPrefix(l, "/vsi"):
		return forms["vsi"] && !strings.HasPrefix(l, "/vsimem") && !strings.HasPrefix(l, "/vsizip") && !strings.HasPrefix(l, "/vsigzip") && !strings.HasPrefix(l, "/vsitar") && !strings.HasPrefix(l, "/vsistdout")
	case forms["colon"]:
		i := strings.IndexByte(p, ':')
		return i > 1 && !strings.ContainsAny(p[:i], "/\\$~") && !strings.HasPrefix(p, ".")
	case forms["alias"]:
		// mc: alias/bucket[/key]; a relative local path looks the same,
		// so only a path whose first part has no dot and is not a
		// common project folder counts
		first, _, ok := strings.Cut(p, "/")
		return ok && first != "" && !strings.ContainsAny(first, ".~$") && !localDirWords[first]
	}
	return false
}

// localDirWords are project folders an mc copy reads from or writes to
// locally (mc cp out/a.csv backups/): not an alias.
var localDirWords = map[string]bool{"out": true, "dist": true, "build": true, "data": true, "tmp": true, "src": true, "output": true, "outputs": true, "target": true, "exports": true, "reports": true, "docs": true, "public": true, "assets": true, "downloads": true, "backups": true, "logs": true, "results": true}

// storeTarget is the store place c writes ("" when it writes none); for
// a verb that writes the configured remote, the remote's name if the line
// gives one, else the verb.
func storeTarget(c *Cmd) string {
	for _, w := range storeWriters()[c.Name] {
		at := storeVerbAt(c, w)
		if at < 0 {
			continue
		}
		ops := c.Pos[min(at, len(c.Pos)):]
		for len(ops) > 1 && optionBefore(c.Args, ops[len(ops)-1]) && !storeRemote(ops[len(ops)-1], w.forms) {
			ops = ops[:len(ops)-1] // --transfers 16: an option's value, not an operand
		}
		switch w.where {
		case "always":
			if r := optValue(c, "-r"); r != "" && c.Name == "dvc" {
				return r
			}
			if r := optValue(c, "--remote"); r != "" {
				return r
			}
			return c.Name + "'s remote"
		case "last":
			if len(ops) >= 2 && storeRemote(ops[len(ops)-1], w.forms) {
				return ops[len(ops)-1]
			}
		case "first":
			for len(ops) > 2 && optionBefore(c.Args, ops[0]) {
				ops = ops[1:] // ogr2ogr -f Parquet DST SRC: the format, not the target
			}
			if len(ops) >= 2 && storeRemote(ops[0], w.forms) {
				return ops[0]
			}
		case "url":
			for _, p := range ops {
				if storeRemote(p, w.forms) {
					return p
				}
			}
		}
	}
	return ""
}

// ownStore: the target, or the endpoint the line sends to, belongs to
// the developer: named for dev, test, scratch, sandbox, local or the
// user, or served on this machine.
func ownStore(e *Env, c *Cmd, target string) bool {
	for _, o := range []string{"--endpoint-url", "--endpoint", "--s3-endpoint", "--url", "-p", "--port"} {
		if v := optValue(c, o); v != "" && isLocalEndpoint(v) {
			return true
		}
	}
	if strings.HasSuffix(target, "'s remote") {
		return false // p4 submit, svn commit: the line names no place
	}
	for _, o := range []string{"--profile", "--project"} {
		if v := optValue(c, o); v != "" && devName(v) {
			return true // aws --profile dev: the development account's bucket
		}
	}
	if strings.HasPrefix(target, "/user/") || strings.HasPrefix(target, "/tmp/") {
		return true // hdfs dfs -put x /user/me/…: the user's own HDFS home, or its scratch
	}
	t := strings.ToLower(target)
	if i := strings.Index(t, "://"); i >= 0 {
		if isLocalEndpoint(target) {
			return true
		}
		t = t[i+3:]
	}
	t = strings.TrimPrefix(t, "/")
	if strings.HasPrefix(t, "vsi") {
		_, t, _ = strings.Cut(t, "/")
	}
	if i := strings.LastIndexByte(t, '@'); i >= 0 {
		t = t[i+1:]
	}
	// the place's first two parts: remote and bucket, or bucket and prefix
	parts := strings.FieldsFunc(t, func(r rune) bool { return r == '/' || r == ':' })
	for _, p := range parts[:min(2, len(parts))] {
		if devName(p) || isLocalEndpoint(p) || mineName(p, path.Base(e.F.Home)) {
			return true
		}
	}
	return false
}

// mineName: a bucket or remote named for the user (jdoe-scratch when the
// home is /home/jdoe, $USER-artifacts, personal-backup).
func mineName(p, user string) bool {
	for _, w := range wordsOf(p) {
		switch w {
		case "$user", "${user}", "personal", "mine", "my", "playground":
			return true
		}
		if len(user) > 2 && w == strings.ToLower(user) {
			return true
		}
	}
	return false
}

// storeWriteRule is a rule over the programs of storewrites.txt. Not
// cmdRule: its shared skip of an external tool "aimed at this machine"
// reads svn commit (no endpoint on the line) and ogr2ogr's /vsis3/…
// (a path) as local; ownStore judges the endpoint and the target here.
func storeWriteRule() Rule {
	names := storeWriteTools()
	named := nameSet(names)
	match := func(e *Env, c *Cmd) string {
		if onlyHelp(c) || e.dryRun(c) || c.Has("--dryrun", "--dry-run", "--help", "help") {
			return ""
		}
		t := storeTarget(c)
		if t == "" || ownStore(e, c, t) {
			return ""
		}
		return c.Name + " writes into " + t + ", a shared store others read (not named as yours or dev/test): " + short80(c.String())
	}
	return Rule{ID: "external.systems:store-write", Mode: Ask, Tools: shellTools, Cmds: names,
		Desc: "A file written into a shared remote store (aws s3 cp/sync to a bucket, gsutil or rclone copy to a remote, an Aspera or FTP upload, GDAL writing to /vsis3/, p4 submit, svn commit, dvc push) whose name does not mark it as the developer's own or dev/test: others read what lands there. Downloads, listings, dry runs and destinations named for dev, test, scratch, sandbox or the user, or on localhost, stay allowed; the programs are data (policy/storewrites.txt)",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				if !e.named(i, names, named) {
					continue
				}
				if r := match(e, &e.F.Commands[i]); r != "" && !e.quiet(i) {
					return r
				}
			}
			return ""
		},
		Catch: []string{"aws s3 cp report.pdf s3://northwind-board-packs/2024/q3.pdf", "gsutil -m rsync -r site/ gs://bakery-www", "rclone copy ./scans b2:clinic-archive/2024", "ascp -QT -l 100m -k1 reads/ asp-sra@upload.ncbi.nlm.nih.gov:uploads/x/", "gdalwarp -t_srs EPSG:3857 in.tif /vsis3/cityworks-tiles/z/out.tif", "p4 submit -d \"fix\"", "dvc push -r origin", "curl -T notes.txt ftp://files.example.org/pub/"},
		Allow: []string{"aws s3 cp s3://northwind-board-packs/2024/q3.pdf .", "aws s3 ls s3://northwind-board-packs/", "aws s3 sync site/ s3://bakery-www --dryrun", "rclone copy b2:clinic-archive/2024 ./scans", "aws s3 cp f s3://acme-dev-scratch/f", "aws --endpoint-url http://localhost:9000 s3 cp f s3://media/f", "dvc push -r local-cache", "p4 changes -m 5", "gdalwarp in.tif out.tif"}}
}
