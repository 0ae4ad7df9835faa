package callfacts

import (
	_ "embed"
	mathbits "math/bits"
	"path"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// appSecretsText lists, as data, the files of applications, frameworks
// and tools that hold credentials wherever they sit (appsecrets.txt):
// wp-config.php, app/etc/env.php, terraform.tfstate, a kubeconfig, a
// Unity license, ~/.p4tickets.
//
//go:embed appsecrets.txt
var appSecretsText string

// appSecretPattern is one pattern of appsecrets.txt: its segments, lower
// case, the last one a file name glob.
type appSecretPattern struct {
	kind string
	segs []string
	// lit is the longest literal run of a glob's last segment
	// (credentials in *credentials*.json): a name without it cannot
	// match, which is cheaper to know than path.Match
	lit string
	// litPairs are lit's byte pairs, dirPairs those of the longest
	// literal runs of the folder segments (jenkins of jenkins/secrets/*):
	// a name (a path) without one of them cannot match, which one AND
	// of masks says before strings.Contains or segsMatch (pairMask)
	litPairs, dirPairs pairSet
	// anyName: the last segment is "*" (jenkins/secrets/*), which
	// path.Match finds in every base name (none holds a '/'): a fifth of
	// the globs, each a candidate for every name, judged by folder alone
	anyName bool
	// under is the folder the file must sit in when the pattern names it
	// literally (keys of keys/*.json, secrets of run/secrets/*), "" when
	// there is none or it is a glob: keys/*.json matches every name of
	// its extension bucket, so a path's own folder, compared once, rules
	// it out before path.Match and segsMatch
	under string
}

// pairSet is a set of hashed byte pairs (bigrams) of lower-case text.
type pairSet [2]uint64

// pairMask is the set of the byte pairs of s, ASCII lowered: a text
// holding a literal holds every pair of it, so a literal whose pairs are
// not all in a text's set is not in the text.
func pairMask(s string) pairSet {
	var m pairSet
	for i := 1; i < len(s); i++ {
		a, b := s[i-1], s[i]
		if 'A' <= a && a <= 'Z' {
			a += 'a' - 'A'
		}
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		h := (uint(a)*131 + uint(b)) & 127
		m[h>>6] |= 1 << (h & 63)
	}
	return m
}

// within: every pair of m is in of.
func (m pairSet) within(of pairSet) bool { return m[0]&^of[0] == 0 && m[1]&^of[1] == 0 }

// appSecretTable indexes the patterns by their file name when it is
// exact, and the globs by their literal extension (*.tfstate under
// ".tfstate"), so a path is compared with the few patterns of its own
// name and extension: secretFile runs for every path a call reads.
type appSecretTable struct {
	byName map[string][]appSecretPattern
	byExt  map[string][]appSecretPattern
	globs  []appSecretPattern // globs without a literal extension (ssfn*)
	// globsBy[h] is the set of globs (by position) whose lit's first
	// byte pair hashes to h (pairMask), or whose lit is shorter than two:
	// a name is compared only with the globs of its own pairs, not with
	// each of the hundred-odd (every path a call reads is compared)
	globsBy [128][globWords]uint64
	// short is the set of globs whose lit is shorter than two, the only
	// candidates for a name of one byte (the globs under every h)
	short [globWords]uint64
	// anyUnder[d] is the set of the anyName globs whose last folder is
	// the literal d (.secrets/*, run/secrets/*, jenkins/secrets/*), and
	// anyLit all of them: a name rules none of them out (about 30, a
	// candidate for every path), but a path whose own folder is not d
	// rules out each of d's, so one map look-up of the path's folder
	// keeps only those it can match instead of trying each
	anyUnder map[string][globWords]uint64
	anyLit   [globWords]uint64
	// notWords: words of a name that say the file is no secret although
	// a "named" pattern matches it (keyboard_keys.yml, hotkeys.json)
	notWords []string
	// notLead: first words of a name that say a "named" match holds no
	// secret: a language's translation keys (en_keys.txt, de-keys.json)
	notLead map[string]bool
	// codeExts: extensions of program sources and documents: a "named"
	// match with one (api_keys.go, managing_secrets.md,
	// V44__drop_legacy_secrets.sql) is code or text about secrets;
	// scriptExts: a script's, when its name starts with an act of
	// actVerbs (rotate_secrets.py, sync-api-keys.sh; local_secrets.py
	// and prod_secrets.exs stay secrets)
	codeExts, scriptExts, actVerbs map[string]bool
}

var appSecrets = sync.OnceValue(func() *appSecretTable {
	t := &appSecretTable{byName: map[string][]appSecretPattern{}, byExt: map[string][]appSecretPattern{}, notLead: map[string]bool{}, anyUnder: map[string][globWords]uint64{},
		codeExts: map[string]bool{}, scriptExts: map[string]bool{}, actVerbs: map[string]bool{}}
	datatable.Must("appsecrets.txt", appSecretsText, 2, func(l datatable.Line) error {
		if l.Fields[0] == "not-named" {
			for _, w := range l.Fields[1:] {
				t.notWords = append(t.notWords, strings.ToLower(w))
			}
			return nil
		}
		if m := map[string]map[string]bool{"not-named-code": t.codeExts, "not-named-script": t.scriptExts, "not-named-act": t.actVerbs}[l.Fields[0]]; m != nil {
			for _, w := range l.Fields[1:] {
				m[strings.ToLower(w)] = true
			}
			return nil
		}
		if l.Fields[0] == "not-named-lead" {
			for _, w := range l.Fields[1:] {
				t.notLead[strings.ToLower(w)] = true
			}
			return nil
		}
		for _, p := range l.Fields[1:] {
			segs := strings.Split(strings.ToLower(p), "/")
			for _, s := range segs {
				if _, err := path.Match(s, ""); err != nil || s == "" {
					return l.Errorf("bad pattern %q: want names and globs joined by /", p)
				}
			}
			e := appSecretPattern{kind: l.Fields[0], segs: segs, lit: longestLiteral(segs[len(segs)-1])}
			e.litPairs = pairMask(e.lit)
			e.anyName = segs[len(segs)-1] == "*"
			if d := segs[max(len(segs)-2, 0)]; len(segs) > 1 && !strings.ContainsAny(d, "*?[\\") {
				e.under = d
			}
			for _, d := range segs[:len(segs)-1] {
				m := pairMask(longestLiteral(d))
				e.dirPairs[0] |= m[0]
				e.dirPairs[1] |= m[1]
			}
			if last := segs[len(segs)-1]; strings.ContainsAny(last, "*?[") {
				if ext := path.Ext(last); ext != "" && !strings.ContainsAny(ext, "*?[") {
					t.byExt[ext] = append(t.byExt[ext], e)
				} else {
					t.globs = append(t.globs, e)
				}
			} else {
				t.byName[last] = append(t.byName[last], e)
			}
		}
		return nil
	})
	if len(t.globs) > 64*globWords {
		panic("appsecrets.txt: more globs than globsBy holds; raise globWords")
	}
	for i, e := range t.globs {
		if len(e.lit) < 2 {
			t.short[i/64] |= 1 << (i % 64)
		}
		if e.anyName && e.under != "" {
			m := t.anyUnder[e.under]
			m[i/64] |= 1 << (i % 64)
			t.anyUnder[e.under] = m
			t.anyLit[i/64] |= 1 << (i % 64)
		}
		for h := range t.globsBy {
			if len(e.lit) < 2 || pairMask(e.lit[:2])[h>>6]&(1<<(h&63)) != 0 {
				t.globsBy[h][i/64] |= 1 << (i % 64)
			}
		}
	}
	return t
})

// globWords bounds appSecretTable.globs (64 per word).
const globWords = 4

// AppSecretFile says which application's credentials file p (a cleaned
// path, absolute or relative) is by appsecrets.txt ("wordpress",
// "terraform"…), "" when it is none. It runs for every path a call
// reads: the name alone picks the candidates, and the whole path is
// lowered and compared only for them.
func AppSecretFile(p string) string {
	if p == "" || strings.HasSuffix(p, "/") {
		return ""
	}
	return AppSecretFileNamed(p, strings.ToLower(path.Base(p)))
}

// AppSecretFileNamed is AppSecretFile of p whose base name, lowered, the
// caller already has (name): policy's secretFile lowers it once for all
// its tests.
func AppSecretFileNamed(p, name string) string {
	if p == "" || strings.HasSuffix(p, "/") {
		return ""
	}
	t := appSecrets()
	lp := ""
	var pp pairSet
	try := func(e *appSecretPattern) bool {
		if len(e.segs) == 1 {
			return true
		}
		if lp == "" {
			pp = pairMask(p)
			lp = "-" // not yet lowered
		}
		if !e.dirPairs.within(pp) {
			return false // a folder the pattern names is not in p
		}
		if lp == "-" {
			lp = strings.ToLower(p)
		}
		return segsMatch(e.segs, lp)
	}
	for i := range t.byName[name] {
		if e := &t.byName[name][i]; try(e) {
			return e.kind
		}
	}
	k := appSecretGlob(t, p, name, try)
	if k != "" && k != "named" && templateName(name) {
		return "" // service-account.example.json, *_accesskeys.sample.csv: a template of the file, holding none
	}
	if k == "named" {
		for _, w := range t.notWords {
			if strings.Contains(name, w) {
				return "" // keyboard_keys.yml, secrets.example.yml: named like a secret, holding none
			}
		}
		if t.codeAboutSecrets(name) {
			return "" // api_keys.go, rotate_secrets.py: a program that handles secrets, not one
		}
		if t.catalogueKeys(name) {
			return "" // en_keys.txt, missing-keys.json: a language's or a catalogue's translation keys
		}
		if b := path.Base(p); !strings.ContainsAny(b, ".abcdefghijklmnopqrstuvwxyz") {
			return "" // DEPLOY_TOKEN, STRIPE_SECRET: a variable's name given to a CLI, not a file
		}
		if testFixturePath(p) {
			return "" // tests/fixtures/client.keys, testdata/admin.macaroon: a test's made-up secret
		}
	}
	if k != "key-folder" || !publicHalf(name) {
		return k
	}
	return "" // keys/fw_signing_pub.pem, keys/ca-cert.pem: the public half kept beside the key
}

// templateName: name (lowered) says it is a template or an example of
// a file, beside a stem or an extension (service-account.example.json,
// credentials.sample.ini, wg0.conf.tmpl).
func templateName(name string) bool {
	for _, d := range []string{"example.com", "example.org", "example.net", "example.edu", "example.local", "example.internal"} {
		name = strings.ReplaceAll(name, d, "") // www.example.com.key, .k5.corp.example.com: a host's name, no template
	}
	words := strings.FieldsFunc(name, func(r rune) bool { return r == '.' || r == '_' || r == '-' })
	for i, w := range words {
		switch w {
		case "example", "examples", "sample", "samples", "template", "templates", "tmpl", "tpl":
			return true
		case "dist":
			if i > 0 && i >= len(words)-2 {
				return true // secrets.yml.dist, credentials.dist.json; not dist-credentials.json
			}
		}
	}
	return false
}

// codeAboutSecrets: name (lowered) is a program's source or a document
// (codeExts), or a script (scriptExts) whose first word, a version or
// date prefix aside (V44__, 20240101_), is an act (actVerbs).
func (t *appSecretTable) codeAboutSecrets(name string) bool {
	ext := path.Ext(name)
	if ext == "" {
		return false
	}
	ext = ext[1:]
	if t.codeExts[ext] {
		return true
	}
	if !t.scriptExts[ext] {
		return false
	}
	for _, w := range strings.FieldsFunc(strings.TrimSuffix(name, "."+ext), func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
		if strings.Trim(strings.TrimPrefix(w, "v"), "0123456789") == "" {
			continue // V44, 20240101: a migration's version
		}
		return t.actVerbs[w]
	}
	return false
}

// catalogueKeys: name's words, its extension aside, are notLead words
// (a region after a language: pt_br) and "keys": en_keys.txt,
// pt_br-keys.json, missing_keys.txt; en_api_keys.txt is not.
func (t *appSecretTable) catalogueKeys(name string) bool {
	stem := strings.TrimSuffix(name, path.Ext(name))
	words := strings.FieldsFunc(stem, func(r rune) bool { return r == '_' || r == '-' })
	if len(words) < 2 || !t.notLead[words[0]] || words[len(words)-1] != "keys" {
		return false
	}
	for i, w := range words[1 : len(words)-1] {
		if !t.notLead[w] && !(i == 0 && len(w) == 2 && w != "sk" && w != "pk") {
			return false
		}
	}
	return true
}

// publicHalf: a key file's name says it is the public half or a
// certificate, which a keys folder keeps beside the private key.
func publicHalf(name string) bool {
	return strings.Contains(name, "pub") || strings.Contains(name, "cert") || strings.Contains(name, "crt") || strings.Contains(name, "chain")
}

// appSecretGlob is the kind of the first glob pattern name matches.
func appSecretGlob(t *appSecretTable, p, name string, try func(*appSecretPattern) bool) string {
	np := pairMask(name)
	folder := lastFolder(p)
	match := func(e *appSecretPattern) bool {
		if e.under != "" && e.under != folder {
			return false // segsMatch would fail it on p's folder
		}
		if e.lit != "" && (!e.litPairs.within(np) || !strings.Contains(name, e.lit)) {
			return false
		}
		if e.anyName {
			return try(e)
		}
		ok, _ := path.Match(e.segs[len(e.segs)-1], name)
		return ok && try(e)
	}
	byExt := t.byExt[path.Ext(name)]
	for i := range byExt {
		if match(&byExt[i]) {
			return byExt[i].kind
		}
	}
	// the candidates: globs without lit, and those whose lit's first
	// pair the name has (a glob whose lit the name lacks is no match)
	var cand [globWords]uint64
	if len(name) < 2 {
		// no pair: only a glob without a lit of two bytes can match, and
		// only those are under every h
		cand = t.short
	} else {
		for w, bits := range np {
			for ; bits != 0; bits &= bits - 1 {
				by := &t.globsBy[w*64+mathbits.TrailingZeros64(bits)]
				for k := range cand {
					cand[k] |= by[k]
				}
			}
		}
	}
	// the anyName globs of a literal folder: only those of p's own folder
	// (segsMatch would fail the others on it), kept in their order
	under := t.anyUnder[folder]
	for k := range cand {
		cand[k] &^= t.anyLit[k] &^ under[k]
	}
	for w, bits := range cand {
		for ; bits != 0; bits &= bits - 1 {
			if e := &t.globs[w*64+mathbits.TrailingZeros64(bits)]; match(e) {
				return e.kind
			}
		}
	}
	return ""
}

// lastFolder is the name of the folder p names its file in, ASCII
// lowered as segsMatch compares it ("secrets" of run/secrets/db), "" for
// a bare name. A folder without capitals (nearly all) is returned as
// it stands, a slice of p: nothing is copied.
func lastFolder(p string) string {
	j := strings.LastIndexByte(p, '/')
	if j < 0 {
		return ""
	}
	d := p[strings.LastIndexByte(p[:j], '/')+1 : j]
	for i := 0; i < len(d); i++ {
		if c := d[i]; c >= 0x80 {
			return strings.ToLower(d) // rare: leave Unicode to ToLower
		} else if 'A' <= c && c <= 'Z' {
			return strings.ToLower(d)
		}
	}
	return d
}

// longestLiteral is the longest run of glob without a wildcard or a
// bracket class in it.
func longestLiteral(glob string) string {
	best := ""
	for _, run := range strings.FieldsFunc(glob, func(r rune) bool { return r == '*' || r == '?' }) {
		if i := strings.IndexByte(run, '['); i >= 0 {
			run = run[:i] // a[bc]d: only what stands before the class is sure
		}
		if strings.ContainsAny(run, "]\\") {
			continue
		}
		if len(run) > len(best) {
			best = run
		}
	}
	return best
}

// segsMatch: p's last len(segs) segments match segs one by one.
func segsMatch(segs []string, p string) bool {
	for i := len(segs) - 1; i >= 0; i-- {
		j := strings.LastIndexByte(p, '/')
		if j < 0 && i > 0 {
			return false
		}
		if ok, _ := path.Match(segs[i], p[j+1:]); !ok {
			return false
		}
		if j < 0 {
			break
		}
		p = p[:j]
	}
	return true
}

// appSecretDirs are the first folders of appsecrets.txt's patterns of two
// or more segments (asterisk of asterisk/pjsip.conf, odoo of
// odoo/odoo.conf, pgbouncer of pgbouncer/userlist.txt).
var appSecretDirs = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	t := appSecrets()
	for _, group := range [][]appSecretPattern{t.globs} {
		for _, e := range group {
			if len(e.segs) > 1 && !strings.ContainsAny(e.segs[0], "*?[") {
				m[e.segs[0]] = true
			}
		}
	}
	for _, byX := range []map[string][]appSecretPattern{t.byName, t.byExt} {
		for _, es := range byX {
			for _, e := range es {
				if len(e.segs) > 1 && !strings.ContainsAny(e.segs[0], "*?[") {
					m[e.segs[0]] = true
				}
			}
		}
	}
	return m
})

// AppSecretDir: p (a cleaned absolute path) is the whole of /etc
// or a system configuration folder of a server whose files hold secrets by
// appsecrets.txt (/etc/asterisk, /etc/odoo, /etc/pgbouncer, /etc/openvpn):
// archived or copied whole, it carries them.
func AppSecretDir(p string) bool {
	p = strings.TrimSuffix(strings.ToLower(p), "/")
	if p == "/etc" {
		return true
	}
	rest, ok := strings.CutPrefix(p, "/etc/")
	if !ok {
		rest, ok = strings.CutPrefix(p, "/usr/local/etc/")
	}
	if !ok || rest == "" {
		return false
	}
	first, _, _ := strings.Cut(rest, "/")
	return appSecretDirs()[first] && !strings.Contains(rest, "/")
}

// testFixturePath: p lies under a project's test folder (test/, tests/,
// testdata/, fixtures/, __fixtures__/, spec/fixtures/), where files named
// like secrets are made up for the tests.
func testFixturePath(p string) bool {
	for p != "" {
		i := strings.IndexByte(p, '/')
		if i < 0 {
			return false
		}
		switch strings.ToLower(p[:i]) {
		case "test", "tests", "testdata", "fixtures", "__fixtures__", "__tests__", "testing":
			return true
		}
		p = p[i+1:]
	}
	return false
}
