package policy

import (
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// The safe look-alikes of dangerous commands, as kinds the destroying
// and secret rules consult, so a guard that asks only when it matters is
// not switched off for asking too often:
//   - what a wrapper (sudo) runs only reports (a dry run, an inspector);
//   - a secret read whose output is reduced to names, counts or structure;
//   - a database on this machine (localhost, a local container) whose
//     name says development or test;
//   - a sync whose deleting side is a local directory;
//   - a pinned release of a repository installed into the project's venv;
//   - image cleanups limited to dangling (untagged, unused) layers.

// innerCmd is the command wrapper c runs (sudo's command), nil if none:
// the next command the reading recorded with c's label as its last
// wrapper.
func innerCmd(e *Env, c *Cmd) *Cmd {
	at := -1
	for i := range e.F.Commands {
		if &e.F.Commands[i] == c {
			at = i
			break
		}
	}
	if at < 0 || at+1 >= len(e.F.Commands) {
		return nil
	}
	d := &e.F.Commands[at+1]
	if len(d.Wrappers) != len(c.Wrappers)+1 || !strings.HasPrefix(d.Wrappers[len(d.Wrappers)-1], c.Name) {
		return nil
	}
	// sudo env LANG=C postfix check, sudo timeout 60 nmap …: env, timeout
	// and nice only set how the command runs; the command they run is
	// the one judged
	for at++; passWrappers[d.Name] && at+1 < len(e.F.Commands); at++ {
		n := &e.F.Commands[at+1]
		if len(n.Wrappers) != len(d.Wrappers)+1 || !strings.HasPrefix(n.Wrappers[len(n.Wrappers)-1], d.Name) {
			break
		}
		d = n
	}
	return d
}

// passWrappers run the command they are given, changing only its
// environment, time limit or priority.
var passWrappers = map[string]bool{"env": true, "timeout": true, "nice": true, "ionice": true, "stdbuf": true, "chrt": true, "taskset": true, "time": true}

// rootReportsOnly: what sudo runs only prints (sudo wipefs --no-act,
// sudo visudo -c, sudo cryptsetup luksDump, sudo zfs destroy -nv), or
// runs as another account that is not root (sudo -u postgres …: the
// command's own rules judge it), or builds inside a build root (sudo
// chroot /srv/buildroot make …: what it changes stays in that tree).
func rootReportsOnly(e *Env, c *Cmd) bool {
	if c.Name != "sudo" && c.Name != "doas" {
		return false
	}
	in := innerCmd(e, c)
	if in == nil {
		return false
	}
	if u := optValue(c, "-u"); u != "" && u != "root" && u != "0" && u != "#0" && !callfacts.UnknownValue(u) &&
		len(in.Pos) > 0 && !callfacts.IsShell(in.Name) && !callfacts.IsInterpreter(in.Name) {
		return true // a command with its arguments as a service account; not its interactive shell (sudo -u postgres psql)
	}
	if u := optValue(c, "-u"); u != "" && u != "root" && u != "0" && u != "#0" && !callfacts.UnknownValue(u) && callfacts.IsInterpreter(in.Name) {
		if cmd, _, _ := appConsoleCmd(e, in); cmd != "" {
			return true // sudo -u www-data php bin/console kimai:user:list: the app console's own rules judge it (appconsoles.txt)
		}
	}
	if in.OnlyReports() || in.OnlyKeeps() || onlyHelp(in) || in.ListsOnly() || rootProjectWork(e, in) || rootLabWork(e, in) || rootTempWork(e, in) || rootObserverWork(e, in) || rootTraceWork(e, in) || rootOwnFiles(e, in) {
		return true
	}
	return in.Name == "chroot" && len(in.Pos) > 1 && buildRoot(in.Pos[0]) && buildCmds[callfacts.ProgramName(in.Pos[1])] ||
		in.Name == "chroot" && len(in.Pos) > 1 && buildRoot(in.Pos[0]) && callfacts.IsShell(callfacts.ProgramName(in.Pos[1])) && shellBuild(e, in)
}

// buildCmds are the programs that build software: run in a build root
// they write into that tree.
var buildCmds = map[string]bool{"make": true, "gmake": true, "ninja": true, "cmake": true, "meson": true, "dpkg-buildpackage": true,
	"rpmbuild": true, "debuild": true, "cargo": true, "go": true, "gcc": true, "cc": true, "./configure": true, "configure": true}

// buildRoot: a chroot directory that is a build tree (/srv/buildroot,
// /var/lib/mock/…, a rootfs or sysroot being assembled), not the
// machine's own root or a mounted system (/, /mnt/…, /host).
func buildRoot(d string) bool {
	d = path.Clean(d)
	if d == "/" || d == "." || callfacts.UnknownValue(d) || strings.HasPrefix(d, "/mnt") || strings.HasPrefix(d, "/media") || d == "/host" || strings.HasPrefix(d, "/proc") {
		return false
	}
	b := strings.ToLower(path.Base(d))
	for _, w := range []string{"buildroot", "build-root", "chroot", "rootfs", "sysroot", "bootstrap", "sbuild", "pbuilder", "mock", "build"} {
		if strings.Contains(b, w) || strings.Contains(strings.ToLower(d), "/"+w) {
			return true
		}
	}
	return false
}

// shellBuild: the shell chroot runs only builds (sh -c 'make … install').
func shellBuild(e *Env, sh *Cmd) bool {
	n := 0
	for i := range e.F.Commands {
		d := &e.F.Commands[i]
		if d.Depth > sh.Depth && len(d.Wrappers) > len(sh.Wrappers) {
			if !buildCmds[d.Name] {
				return false
			}
			n++
		}
	}
	return n > 0
}

// reducedOutput reports whether every command named via (the reader of
// a secret file) prints only names, counts or structure: it reduces its
// own output (jq 'keys', grep -c, cut -d= -f1), or a later stage of its
// pipe does (| wc -l, | sed 's/=.*//', | yq keys), and nothing on the
// line sends.
func reducedOutput(e *Env, via string) bool {
	if via == "" || len(e.F.Cmds(senders...)) > 0 {
		return false
	}
	seen := false
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if via == "<" && len(e.F.Commands) <= 2 {
			// wc -c < config/master.key: the file fed to a command's
			// input; with one or two commands, every one must reduce
			seen = true
			if !reducer(c) && !reducedDownstream(e, i) {
				return false
			}
			continue
		}
		if c.Name != via {
			continue
		}
		seen = true
		if !reducer(c) && !reducedDownstream(e, i) {
			return false
		}
	}
	return seen
}

// reducedDownstream: a later stage of command i's pipe reduces what it
// prints, and no stage before that copies it aside (tee).
func reducedDownstream(e *Env, i int) bool { return downstreamDoes(e, i, reducer) }

// downstreamDoes: a later stage of command i's pipe satisfies does, and
// no stage before it copies the output aside (tee).
func downstreamDoes(e *Env, i int, does func(*Cmd) bool) bool {
	c := &e.F.Commands[i]
	n := len(c.Upstream)
	for j := i + 1; j < len(e.F.Commands); j++ {
		d := &e.F.Commands[j]
		m := n
		for _, w := range c.Wrappers {
			// sudo slapcat | grep -c: the stage is named by its wrappers
			// first (sudo, then slapcat)
			if m < len(d.Upstream) && d.Upstream[m] == strings.SplitN(w, " ", 2)[0] {
				m++
			}
		}
		if len(d.Upstream) <= m || d.Upstream[m] != c.Name {
			if len(d.Wrappers) > len(c.Wrappers) {
				continue // a wrapped command's own inner command
			}
			return false
		}
		if d.Name == "tee" {
			return false
		}
		if does(d) {
			return true
		}
	}
	return false
}

var (
	// jq/yq filters that print keys, counts, types or names (a
	// password manager item's field labels and titles, .fields[].label:
	// the names of its fields, not their values)
	structFilter = re(`(?:^|\|)\s*(?:keys(?:\[\])?|keys_unsorted(?:\[\])?|length|type|paths|has\([^)]*\)|map\((?:keys|\.name|\.label|\.title|type|length)\)|to_entries\s*\|\s*map\(\.key\)|[\w.\[\]"-]*\.(?:name|names|kind|type|label|title|apiVersion|"?current-context"?)(?:\[\])?)\s*$`)
	// sed whose replacement masks what it matched (s#(/v3/).*#\1<redacted>#,
	// s/:[^@]*@/:***@/): the secret part is replaced before it prints
	sedMasks = re(`(?i)^s\S.*(redacted|\*{3,}|x{4,}|<hidden>|<masked>|<secret>)`)
	// sed that cuts a KEY=value line at its = (s/=.*//) or masks the
	// value (s/=.*/=***/: a replacement without & or \1)
	sedCutValue = re(`^s(?:/=\.\*\$?/[^/&\\]*/|\|=\.\*\$?\|[^|&\\]*\||#=\.\*\$?#[^#&\\]*#|:=\.\*\$?:[^:&\\]*:|,=\.\*\$?,[^,&\\]*,)g?$`)
	// awk that prints the first =-separated field
	awkFirst = re(`^\{\s*print\s+\$1;?\s*\}$`)
)

// reducer: c prints names, counts or structure of its input, not values.
// privateKeyLine: a grep pattern for the line holding a private key.
var privateKeyLine = re(`(?i)private.?key`)

func reducer(c *Cmd) bool {
	if piecer(c) {
		return true // cut -c1-4, head -c 6: a short piece of each line (pack_secret_pieces.go)
	}
	switch c.Name {
	case "wc", "sha256sum", "sha1sum", "sha512sum", "sha224sum", "sha384sum", "md5sum", "b2sum", "shasum", "cksum", "md5":
		return true // a count or a digest
	case "openssl":
		// openssl x509 -noout -dates|-subject|-fingerprint: a certificate's
		// metadata, never a key (x509 reads no private key); dgst a digest
		return len(c.Pos) > 0 && (c.Pos[0] == "x509" && c.Has("-noout") && !c.Has("-out") || c.Pos[0] == "dgst" && !c.Has("-sign", "-hmac", "-mac", "-out"))
	case "grep", "rg", "egrep":
		// grep -v PrivateKey: every line but the private key's, in a
		// config that holds one key (WireGuard, an SSH or TLS setup)
		return c.Has("-c", "--count", "-q", "--quiet", "-l", "--files-with-matches", "-L") || namesOnlyMatch(c) ||
			c.Has("-v", "--invert-match") && len(c.Pos) > 0 && privateKeyLine.MatchString(c.Pos[0])
	case "wg":
		return sub(c) == "pubkey" // cat private.key | wg pubkey: the public half
	case "jq", "yq", "gojq", "jaq":
		return len(c.Pos) > 0 && (structFilter.MatchString(c.Pos[0]) || jqRedacts(c.Pos[0]))
	case "cut":
		d, f := optJoined(c, "-d", "--delimiter"), optJoined(c, "-f", "--fields")
		return (d == "=" || d == ":") && f == "1"
	case "sed":
		for _, a := range c.Args {
			if sedCutValue.MatchString(strings.TrimSpace(a)) || sedMasks.MatchString(strings.TrimSpace(a)) {
				return !c.Has("-i", "--in-place")
			}
		}
	case "awk", "gawk", "mawk":
		// awk -F= '{print $1}', '{print $1"=<redacted>"}': the names only
		return optJoined(c, "-F") == "=" && len(c.Pos) > 0 && (awkFirst.MatchString(strings.TrimSpace(c.Pos[0])) || columnsOnly(c, credColumns{"=", 2}))
	}
	return false
}

// optJoined is the value of a short option written apart or joined
// (-d= or -d '='), or of a long one (--delimiter==).
func optJoined(c *Cmd, opts ...string) string {
	for i, a := range c.Args {
		for _, o := range opts {
			switch {
			case a == o && i+1 < len(c.Args):
				return c.Args[i+1]
			case strings.HasPrefix(o, "--") && strings.HasPrefix(a, o+"="):
				return a[len(o)+1:]
			case !strings.HasPrefix(o, "--") && strings.HasPrefix(a, o) && len(a) > len(o):
				return a[len(o):]
			}
		}
	}
	return ""
}

var (
	// a database named for development or testing (app_dev, app_test,
	// myapp_development, test_app)
	devDBName = re(`(?i)^(?:[\w-]*[_-](?:dev|development|test|testing|local)|(?:dev|test)_[\w-]*)$`)
	// the database a client or a URL names
	dbOpt = re(`(?:^|\s)(?:-d|--dbname|--database|-D)[\s=]['"]?([\w-]+)|\b(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?)://[^\s/'"]*/([\w-]+)|\bdropdb\s+(?:-[hpUd]\s+\S+\s+|--(?:host|port|username|maintenance-db)\s+\S+\s+|-\S+\s+)*['"]?([\w-]+)|(?i:\b(?:Database|Initial Catalog|dbname|PGDATABASE|MYSQL_DATABASE|MYSQL_DB|DB_NAME|DATABASE_NAME)=|\bDROP\s+DATABASE\s+(?:IF\s+EXISTS\s+)?)["'\[]?([\w-]+)`)
)

// localDevDB: the line's database clients reach a server on this machine
// (a localhost URL or host, no server named at all, or a client run inside
// a local container with docker/podman/nerdctl exec), every database it
// names (an option, a URL, psql's or mysql's operand, a connection
// string's Database=, the name DROP DATABASE drops) is a development
// or test one, and nothing names production: the developer's own data.
func localDevDB(e *Env) bool { return localDevDBFor(e, false) }

// localDevDBFor is localDevDB; with drop (DROP, TRUNCATE, dropdb), a
// line that names no server needs test databases: a dev database may hold
// the developer's hand-made state, and the socket's server is not shown.
func localDevDBFor(e *Env, drop bool) bool {
	line := lineWithPayloads(e)
	if prodMarker.MatchString(line) {
		return false
	}
	names := dbOpt.FindAllStringSubmatch(line, -1)
	tests := true
	for _, m := range names {
		n := m[1] + m[2] + m[3] + m[4]
		if !devDBName.MatchString(n) && !devName(n) {
			return false
		}
		tests = tests && testName(n)
	}
	n, ok, t := positionalDBs(e)
	tests = tests && t
	if !ok || len(names)+n == 0 || connStringElsewhere(line) {
		return false
	}
	if localHostRef.MatchString(line) && !hostElsewhere(line) {
		return true
	}
	if !namesDBHost.MatchString(line) && !strings.Contains(line, "PGHOST") && !strings.Contains(line, "MYSQL_HOST") && runsHere(e) && (tests || !drop || devDropdb(e, line)) {
		return true // no server named: the client connects to this machine's socket (dropdb acme_test_0615, psql -d dev_acme, dropdb --if-exists acme_billing_dev; sudo -u postgres: the system server's own superuser, test names only)
	}
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if (c.Name == "docker" || c.Name == "podman" || c.Name == "nerdctl") && c.Remote == "" && !strings.Contains(line, "DOCKER_HOST=") &&
			(sub(c) == "exec" || sub(c) == "compose" && c.Sub(1) == "exec") {
			return !hostElsewhere(line)
		}
	}
	return false
}

// devDropdb: dropdb (not a client's DROP DATABASE, not sudo -u postgres
// on the system server) of a database localDevDBFor found dev-named.
func devDropdb(e *Env, line string) bool {
	return len(e.F.Cmds("dropdb")) > 0 && !strings.Contains(line, "sudo ") && !strings.Contains(line, "DROP ") && !strings.Contains(line, "drop database")
}

// hostElsewhere: the line also names a server (-h HOST, --host HOST, a
// URL's host) that is not this machine.
func hostElsewhere(line string) bool {
	for _, m := range hostRef.FindAllStringSubmatch(line, -1) {
		if h := m[1] + m[2]; !isLocalEndpoint(h) && !isLocalEndpoint("x://"+h) {
			return true
		}
	}
	return false
}

var hostRef = re(`(?:^|\s)(?:-h|--host)[\s=]['"]?([\w.:\[\]-]+)|://(?:[^\s/@]*@)?([\w.-]+)`)

// localMirrorDest: a sync that deletes at its destination (gsutil rsync
// -d, rclone sync, aws s3 sync --delete) into a local directory: what it
// deletes are local files, which the verdict table judges by zone.
func localMirrorDest(c *Cmd) bool {
	if len(c.Pos) < 2 {
		return false
	}
	d := c.Pos[len(c.Pos)-1]
	if strings.Contains(d, "://") || callfacts.UnknownValue(d) || strings.HasPrefix(d, "-") {
		return false
	}
	if strings.Contains(d, "=") && !strings.Contains(d, "/") {
		return false // --cache-control max-age=300: an option's value, so the destination is not known here
	}
	if i := strings.Index(d, ":"); i > 0 && !strings.Contains(d[:i], "/") && !(i == 1 && len(d) > 2) {
		return false // remote:path (rclone), host:path
	}
	return true
}

// pinnedRelease: a repository URL of a well-known publisher pinned to a
// release tag or a full commit (git+https://github.com/psf/requests@v2.32.3):
// a fixed, public version of a project others review, like a registry
// release. A pin alone is not enough: anyone can tag their own repository.
var pinnedRelease = re(`(?i)^git\+https://(?:github\.com|gitlab\.com)/([\w.-]+)/[\w.-]+?(?:\.git)?@(?:v?\d+(?:\.\d+)+(?:[-.]?(?:rc|post|b|a)\d*)?|[0-9a-f]{40})(?:#.*)?$`)

// knownPublishers are forge organisations of widely used open-source
// projects (the Python, web and ML ecosystems' own, and large vendors'):
// their tagged releases are what the registries ship.
var knownPublishers = map[string]bool{"psf": true, "pallets": true, "django": true, "pypa": true, "python": true, "numpy": true, "scipy": true,
	"pandas-dev": true, "encode": true, "tiangolo": true, "fastapi": true, "pydantic": true, "sqlalchemy": true, "aio-libs": true, "boto": true,
	"googleapis": true, "google": true, "microsoft": true, "facebook": true, "facebookresearch": true, "aws": true, "awslabs": true, "huggingface": true,
	"pytorch": true, "tensorflow": true, "apache": true, "mozilla": true, "openai": true, "anthropics": true, "pytest-dev": true, "celery": true,
	"scikit-learn": true, "matplotlib": true, "jupyter": true, "ipython": true, "astral-sh": true, "python-poetry": true, "urllib3": true,
	"certifi": true, "pyca": true, "psycopg": true, "redis": true, "getsentry": true, "Textualize": true, "pallets-eco": true, "tox-dev": true}

func pinnedKnownRelease(p string) bool {
	m := pinnedRelease.FindStringSubmatch(p)
	return m != nil && knownPublishers[m[1]]
}

// projectVenvInstall: pip (the project's virtualenv's own, by its path)
// installs only pinned releases.
func projectVenvInstall(e *Env, c *Cmd) bool {
	if c.Name != "pip" && c.Name != "pip3" || !strings.Contains(c.Raw, "/") {
		return false
	}
	dir := path.Dir(path.Dir(e.abs(c, c.Raw))) // .venv/bin/pip → .venv
	if callfacts.ZoneOf(dir, e.F.Home, e.F.Project) != callfacts.ZoneProject {
		return false
	}
	n := 0
	for _, p := range installArgs(c) {
		if p == "install" {
			continue
		}
		if strings.Contains(p, "://") && !pinnedKnownRelease(p) {
			return false
		}
		n++
	}
	return n > 0
}

// danglingOnly: c's captured listing is of dangling images only (docker
// images -q --filter dangling=true): untagged layers nothing uses.
func danglingOnly(e *Env, name string) bool {
	for i := range e.F.Commands {
		d := &e.F.Commands[i]
		if d.Name == name && d.Captured {
			a := strings.Join(d.Args, " ")
			if !strings.Contains(a, "dangling=true") || !anyPos(d, "images", "image") {
				return false
			}
		}
	}
	return true
}

// mirrorsFromProd: a sync or copy into a local directory (the last
// argument) that names production only among its sources: production is
// read, the local copy is what changes.
func mirrorsFromProd(c *Cmd) bool {
	if anyPos(c, "cp", "copy") && len(c.Pos) > 2 && c.Pos[len(c.Pos)-1] == "-" && strings.Contains(c.Pos[len(c.Pos)-2], "://") {
		return true // aws s3 cp s3://x-prod/index.m3u8 -: printed on the terminal, like cat
	}
	if !anyPos(c, "sync", "rsync", "cp", "mirror", "copy") || !localMirrorDest(c) {
		return false
	}
	d := c.Pos[len(c.Pos)-1]
	// kubectl cp prod/web-1:/app/settings.py ./settings.prod.py: a relative
	// destination is a file here, whatever it is called
	return !prodWord.MatchString(d) || !strings.HasPrefix(d, "/") && !strings.HasPrefix(d, "~") && copyFromRemote(c)
}

// copyFromRemote: the copy's source (the operand before the destination)
// is a remote or container path (pod:/path, s3://b/k, host:path).
func copyFromRemote(c *Cmd) bool {
	if len(c.Pos) < 3 {
		return false
	}
	s := c.Pos[len(c.Pos)-2]
	if remoteDest(s) {
		return true
	}
	// kubectl cp NAMESPACE/POD:/path: the pod's path
	i := strings.IndexByte(s, ':')
	return i > 0 && strings.Count(s[:i], "/") == 1 && !strings.HasPrefix(s, "/") && !strings.HasPrefix(s, ".") && !strings.HasPrefix(s, "~")
}

// selfGuardedTasks are the frameworks whose destroying database tasks
// refuse a production database on their own, and the variable or option
// that switches that check off: bin/rails db:reset runs against the
// development database unless told otherwise, and Rails stops it on a
// protected environment (ActiveRecord::ProtectedEnvironmentError);
// artisan's migrate:fresh, db:wipe and migrate:reset refuse to run in
// production without --force (ops14, fp14).
var selfGuardedTasks = map[string]string{"rails": "DISABLE_DATABASE_ENVIRONMENT_CHECK", "rake": "DISABLE_DATABASE_ENVIRONMENT_CHECK", "artisan": "--force"}

// selfGuarded: program name's task keeps its own production check on
// this line (nothing names production: the caller tested that).
func selfGuarded(name, line string) bool {
	off, ok := selfGuardedTasks[name]
	// an environment named on the line (RAILS_ENV=staging) may be one the
	// framework does not protect: only the default, development, is sure
	return ok && !strings.Contains(line, off) && !strings.Contains(line, "DATABASE_URL=") && !strings.Contains(line, "_ENV=") && !strings.Contains(line, "--env")
}

// projectMirror: a sync's local destination is in the project or a
// scratch directory (./assets-mirror, /tmp/site): what it deletes there
// is a copy it can fetch again. A destination elsewhere in the home
// (rclone sync remote:empty ~/Documents) stays denied.
func projectMirror(e *Env, c *Cmd) bool {
	if !localMirrorDest(c) {
		return false
	}
	d := e.abs(c, c.Pos[len(c.Pos)-1])
	if d == e.F.Project || d == e.F.Home {
		return false
	}
	switch callfacts.ZoneOf(d, e.F.Home, e.F.Project) {
	case callfacts.ZoneTemp:
		return true
	case callfacts.ZoneProject:
		// a mirror, not the project's source: named as a copy or output
		// (assets-mirror, fixtures-cache, dist), or not there yet
		rel, _ := strings.CutPrefix(d, e.F.Project+"/")
		top, _, _ := strings.Cut(rel, "/")
		return buildOutputName(top) || scratchName(top) || mirrorName.MatchString(path.Base(d)) || !fileExists(path.Join(e.F.Project, top))
	}
	return false
}

// mirrorName: a directory named as a local copy of something elsewhere.
var mirrorName = re(`(?i)mirror|backup|copy|cache|snapshot|download|export|dump|replica|sync|local`)

// namesOnlyMatch: grep -o with a pattern anchored at the line's start
// that cannot reach past the first "=" (grep -o '^[A-Z_]*=' .env,
// grep -oE '^[^=]+'): it prints the variables' names, never their values.
// A wildcard (., \S, \w, another negated class) could run into the value.
var (
	// a bracket class of name characters only (letters, digits, _ . -)
	nameClass = re(`\[(?:[A-Za-z0-9_.-]|[A-Za-z0-9]-[A-Za-z0-9])+\][*+?]?`)
	// a group of plain words, one of which the name holds
	wordAlts = re(`\((?:\?:)?[A-Za-z0-9_]+(?:\|[A-Za-z0-9_]+)+\)`)
	// an element's key, name or id attribute up to its closing quote
	attrNameOnly = re(`(?i)\b(?:key|name|id)=(?:"\[\^"\]\*"|'\[\^'\]\*')$`)
)

func namesOnlyMatch(c *Cmd) bool {
	if !c.Has("-o", "--only-matching") && !hasShortFlag(c, 'o') {
		return false
	}
	pat := optJoined(c, "-e", "--regexp")
	if pat == "" && len(c.Pos) > 0 {
		pat = c.Pos[0]
	}
	if attrNameOnly.MatchString(pat) {
		return true // <add key="[^"]*": an XML element's key attribute, the match ends at its closing quote
	}
	pat = strings.ReplaceAll(pat, "[^=]", "N") // a run of anything but "=": the name
	pat = nameClass.ReplaceAllString(pat, "N") // [A-Za-z_.]: letters of a name, no "=" or ":"
	pat = wordAlts.ReplaceAllString(pat, "N")  // (PASSWORD|password): words the name holds
	if !strings.HasPrefix(pat, "^") || strings.ContainsAny(pat, ".|") || strings.Contains(pat, `\S`) || strings.Contains(pat, `\w`) || strings.Contains(pat, "[^") {
		return false
	}
	i := strings.IndexByte(pat, '=')
	return i < 0 || i == len(pat)-1
}
