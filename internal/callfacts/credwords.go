package callfacts

import (
	_ "embed"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

//go:embed credwords.txt
var credWordsText string

type credWordTable struct {
	sets map[string]map[string]bool // verb, noun, alone, cluster, write
	// each kind's set, read without a lookup of its name: the words of
	// every command of a line meet a dozen of them
	verb, noun, alone, cluster, write, reveal, compoundverb, nocompound map[string]bool
	joinverb, joinnoun, joinkey, jointrail, exportnoun, exportverb      map[string]bool
	unlock, public, metaword, showopt                                   map[string]bool
	listnoun, listverb, holder                                          map[string]bool
	configunlock, configword, optnoun, refscheme                        map[string]bool
	skip                                                                map[string][][]string // program → the words after it
	// kinds are, per word, the sets of wordKinds it is in
	kinds map[string]wordKind
	// joinVerbs, joinNouns, joinTrails: the joinverb, joinnoun and
	// jointrail sets as slices, walked in order without map iteration
	joinVerbs, joinNouns, joinTrails []string
}

var credWords = sync.OnceValue(func() *credWordTable {
	t := &credWordTable{sets: map[string]map[string]bool{}, skip: map[string][][]string{}}
	for _, l := range datatable.Lines("credwords.txt", credWordsText) {
		f := l.Fields
		if len(f) < 2 {
			panic(l.Errorf("want KIND WORDS…, got %q", l.Text))
		}
		switch f[0] {
		case "skip":
			for _, p := range f[1:] {
				t.skip[p] = append(t.skip[p], nil)
			}
		case "skipwords":
			t.skip[f[1]] = append(t.skip[f[1]], f[2:])
		case "verb", "noun", "alone", "cluster", "write", "reveal", "compoundverb", "nocompound",
			"joinverb", "joinnoun", "joinkey", "jointrail", "exportnoun", "exportverb", "unlock", "public", "metaword", "showopt",
			"listnoun", "listverb", "holder", "configunlock", "configword", "optnoun", "refscheme":
			if t.sets[f[0]] == nil {
				t.sets[f[0]] = map[string]bool{}
			}
			for _, w := range f[1:] {
				t.sets[f[0]][w] = true
			}
		default:
			panic(l.Errorf("unknown kind %q", f[0]))
		}
	}
	for _, k := range []struct {
		set string
		to  *[]string
	}{{"joinverb", &t.joinVerbs}, {"joinnoun", &t.joinNouns}, {"jointrail", &t.joinTrails}} {
		*k.to = slices.Sorted(maps.Keys(t.sets[k.set]))
	}
	for k, to := range map[string]*map[string]bool{"verb": &t.verb, "noun": &t.noun, "alone": &t.alone, "cluster": &t.cluster,
		"write": &t.write, "reveal": &t.reveal, "compoundverb": &t.compoundverb, "nocompound": &t.nocompound,
		"joinverb": &t.joinverb, "joinnoun": &t.joinnoun, "joinkey": &t.joinkey, "jointrail": &t.jointrail,
		"exportnoun": &t.exportnoun, "exportverb": &t.exportverb, "unlock": &t.unlock, "public": &t.public,
		"metaword": &t.metaword, "showopt": &t.showopt, "listnoun": &t.listnoun, "listverb": &t.listverb, "holder": &t.holder,
		"configunlock": &t.configunlock, "configword": &t.configword, "optnoun": &t.optnoun, "refscheme": &t.refscheme} {
		*to = t.sets[k] // nil for a kind the table lacks: a lookup in it is false, as before
	}
	t.kinds = t.wordKinds()
	return t
})

// credWordsWindow is how many leading positional words are taken as
// subcommand words.
const credWordsWindow = 5

// wordKind is a set of the word sets printsCredentialByWords reads for
// each word.
type wordKind uint16

const (
	kindVerb wordKind = 1 << iota
	kindNoun
	kindAlone
	kindWrite
	kindMetaword
	kindExportVerb
	kindExportNoun
	kindListVerb
	kindListNoun
	kindConfigWord
	kindHolder
)

// wordKinds maps the sets of credWordTable to their wordKind.
func (t *credWordTable) wordKinds() map[string]wordKind {
	m := map[string]wordKind{}
	for _, k := range []struct {
		set  map[string]bool
		kind wordKind
	}{{t.verb, kindVerb}, {t.noun, kindNoun}, {t.alone, kindAlone}, {t.write, kindWrite}, {t.metaword, kindMetaword},
		{t.exportverb, kindExportVerb}, {t.exportnoun, kindExportNoun}, {t.listverb, kindListVerb}, {t.listnoun, kindListNoun},
		{t.configword, kindConfigWord}, {t.holder, kindHolder}} {
		for w, in := range k.set {
			if in {
				m[w] |= k.kind
			}
		}
	}
	return m
}

// printsCredentialByWords says whether c's subcommand words print a
// credential by credwords.txt: a read verb with a credential noun
// (nomad acl token self), a noun that prints alone (linode-cli lke
// kubeconfig-view), a cluster's config (civo kubernetes config NAME).
func (c *Cmd) printsCredentialByWords() bool {
	if len(c.Pos) == 0 {
		return false
	}
	t := credWords()
	name := strings.ToLower(c.Name)
	n := min(len(c.Pos), credWordsWindow)
	if sk, ok := t.skip[name]; ok {
		for _, words := range sk {
			if len(words) <= n && equalFold(c.Pos[:len(words)], words) {
				return false
			}
		}
	}
	verb, noun := false, false
	configWord := false
	exportVerb, exportNoun := false, false
	listNoun, listVerb := false, false
	// each word lowered once: configGetSecretKey reads the same words
	var low [credWordsWindow]string
	prevHolder := false
	for i, p := range c.Pos[:n] {
		w := strings.ToLower(p)
		low[i] = w
		// every set the word is in, in one lookup: this runs for every
		// word of every command of a line
		k := t.kinds[w]
		exportVerb = exportVerb || k&kindExportVerb != 0
		exportNoun = exportNoun || k&kindExportNoun != 0
		if listNoun && k&kindListVerb != 0 {
			listVerb = true // particle token list, influx auth list: the tokens' values in the listing
		}
		listNoun = listNoun || k&kindListNoun != 0
		configWord = configWord || k&kindConfigWord != 0
		if prevHolder && k&kindNoun != 0 {
			verb = true // omero sessions key: the session's key itself
		}
		prevHolder = k&kindHolder != 0
		switch {
		case k&kindMetaword != 0:
			return false // vault kv metadata get secret/ci/token: the secret's metadata
		case k&kindAlone != 0:
			verb, noun = true, true
		case k&kindNoun != 0:
			noun = true
		case k&kindVerb != 0:
			verb = true
		case joinedCredWord(t, w):
			verb, noun = true, true // dumpprivkey, exportprivkey, showseed, GetSecretValue
		case strings.ContainsAny(w, ":/._") && (!strings.Contains(w, "://") || secretRef(t, w)):
			v, n := segmentCredWord(t, w)
			verb, noun = verb || v, noun || n // pillar.get mysql:root_password, kv get app/db_password
		case w == "-" && i > 0 && strings.HasPrefix(strings.ToLower(c.Pos[i-1]), "kubeconfig"):
			verb = true // talosctl kubeconfig -: written to standard output
		case w == "config" && i > 0 && t.cluster[strings.ToLower(c.Pos[i-1])]:
			verb, noun = true, true // civo kubernetes config NAME, vultr-cli kubernetes config ID
		case w == "help" || k&kindWrite != 0:
			return false
		case strings.ContainsAny(w, "-:") && i < 3:
			v, n := compoundCredWord(t, w)
			verb, noun = verb || v, noun || n // get-app-password, show-secret, get-credentials-as-xml
		}
	}
	if exportVerb && exportNoun || listVerb {
		verb, noun = true, true // near wallet export, keystore dump; particle token list
	}
	if !noun && configGetSecretKey(c, low[:n]) {
		verb, noun = true, true // occ config:system:get dbpassword, wp option get mailserver_pass (configgetkey.go)
	}
	if !verb || !noun {
		for _, a := range c.Args {
			if len(a) > 8 && a[0] == '-' && a[1] == '-' && showOptCred(t, a) {
				verb, noun = true, true // profile get --show-api-key
			}
		}
	}
	if noun != verb {
		for _, a := range c.Args {
			k, _, _ := strings.Cut(a, "=")
			k = strings.ToLower(k)
			if noun && t.reveal[k] {
				verb = true // sst secrets list --show-values, export-key --private
			} else if verb && t.unlock[k] {
				noun = true // decrypt --show, data bag show … --secret-file
			} else if verb && configWord && t.configunlock[k] {
				noun = true // config view --raw: the config with its secrets unmasked
			} else if verb && k == a && optNounFlag(t, k) {
				noun = true // end-devices get ID --root-keys: the keys themselves
			}
		}
	}
	if verb && noun {
		for _, a := range c.Args {
			if k, _, _ := strings.Cut(a, "="); t.public[strings.ToLower(k)] || a == "-a" && keysShowAddress(c) {
				return false // keys export alice --public: the public half
			}
		}
	}
	if !verb || !noun || c.DryRun() || c.Has("--help") {
		return false
	}
	for _, a := range c.Args {
		k, _, _ := strings.Cut(a, "=")
		if len(k) < 2 || k[0] != '-' || k[1] == '-' {
			k = strings.ToLower(k) // a short option keeps its case: -F json is a format, -f a file
		}
		if t.write[k] {
			return false // --output-file x, --save, -f file: written, not printed
		}
	}
	return true
}

// compoundCredWord says whether one hyphenated subcommand word is a
// read verb ending in a credential noun (get-app-password, show-secret)
// or a noun ending in a read verb (mysql-creds-view);
// describe-secret, get-credential-report and get-ssh-public-key print
// metadata or public keys.
func compoundCredWord(t *credWordTable, w string) (verb, noun bool) {
	if !strings.ContainsAny(w, "-:") {
		return false, false // one word: nothing to split (and no slice made for it)
	}
	// The last part decides first: most joined words (--dry-run,
	// node-modules) end in no noun or verb, and that is told without
	// splitting the word into a slice.
	tail := strings.TrimRight(w, "-:")
	if last := tail[strings.LastIndexAny(tail, "-:")+1:]; !t.noun[last] && !t.compoundverb[last] {
		if head := w[:strings.IndexAny(w, "-:")]; t.compoundverb[head] && !t.nocompound[last] {
			for _, part := range strings.FieldsFunc(w, func(r rune) bool { return r == '-' || r == ':' }) {
				if t.nocompound[part] {
					return false, false
				}
			}
			return true, false // get-pipeline-var prod db_password: the read, its key named after it
		}
		return false, false
	}
	parts := strings.FieldsFunc(w, func(r rune) bool { return r == '-' || r == ':' })
	if len(parts) < 2 {
		return false, false
	}
	last := parts[len(parts)-1]
	lastNoun, lastVerb := t.noun[last], t.compoundverb[last]
	if !lastNoun && !lastVerb {
		return false, false
	}
	exportish := false
	for _, part := range parts[:len(parts)-1] {
		if t.nocompound[part] {
			return false, false
		}
		if lastNoun && t.compoundverb[part] || lastVerb && t.noun[part] {
			verb = true // get-app-password; mysql-creds-view
		}
		exportish = exportish || lastNoun && t.exportverb[part]
	}
	if !verb && exportish {
		return false, true // export-key: the noun, printed with --private
	}
	return verb, verb
}

// joinedCredWord: one word without separators made of a print verb and a
// secret noun (dumpprivkey, exportprivkey, dumpwallet, showseed,
// getsecretvalue); getwalletinfo and getnewaddress end in no noun.
func joinedCredWord(t *credWordTable, w string) bool {
	if len(w) < 7 || strings.ContainsAny(w, "-:/._=") {
		return false
	}
	var rest string
	for _, v := range t.joinVerbs {
		if strings.HasPrefix(w, v) {
			rest = w[len(v):]
			break
		}
	}
	if rest == "" {
		return false
	}
	for _, tr := range t.joinTrails {
		if r, ok := strings.CutSuffix(rest, tr); ok && r != "" {
			rest = r
			break
		}
	}
	if t.joinkey[rest] {
		return true // exportkey, dumpkey: the key right after the verb
	}
	for _, nn := range t.joinNouns {
		if strings.HasSuffix(rest, nn) {
			return true
		}
	}
	return false
}

// segmentCredWord reads a word joined by : / . or _ by its last part: a
// salt or module function (pillar.get, secret.get, vault.read_secret) or
// a lookup's key (mysql:root_password, secret/app/db_password, api_key,
// prod_secrets).
func segmentCredWord(t *credWordTable, w string) (verb, noun bool) {
	for i := 0; i < len(w); i++ {
		if b := w[i]; !(b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == ':' || b == '/' || b == '.' || b == '_' || b == '-') {
			return false, false // a header, a request item, a variable: not a key's name ("Authorization:Bearer $TOKEN")
		}
	}
	tail := w[strings.LastIndexAny(w, ":/.")+1:]
	if tail == "" {
		return false, false
	}
	if strings.HasSuffix(tail, "url") || strings.HasSuffix(tail, "uri") {
		return false, false // kv get CONFIG db_url: an address, by its key's name
	}
	tail = strings.ReplaceAll(tail, "_", "-")
	switch {
	case t.alone[tail]:
		return true, true
	case t.noun[tail]:
		return false, true
	case t.verb[tail]:
		return true, false
	}
	if i := strings.LastIndexByte(tail, '-'); i >= 0 {
		if v, n := compoundCredWord(t, tail); v || n {
			return v, n
		}
		if strings.IndexByte(w, '_') >= 0 && t.noun[tail[i+1:]] {
			return false, true // prod_secrets, db_root_password
		}
		if joinedCredWord(t, tail[i+1:]) {
			return true, true // z_exportkey, z_exportwallet
		}
	}
	return false, false
}

// keysShowAddress: a Cosmos SDK node's keys show, where -a is
// --address (gaiad keys show validator -a --keyring-backend file): the
// keyring's show prints addresses and public keys only (the key leaves
// by keys export).
func keysShowAddress(c *Cmd) bool {
	return len(c.Pos) >= 2 && strings.EqualFold(c.Pos[0], "keys") && strings.EqualFold(c.Pos[1], "show")
}

func equalFold(a, b []string) bool {
	for i := range b {
		if !strings.EqualFold(a[i], b[i]) {
			return false
		}
	}
	return true
}

// showOptCred: an option that asks to show a secret noun
// (--show-api-key, --reveal-password, --include-secrets).
func showOptCred(t *credWordTable, a string) bool {
	k, _, _ := strings.Cut(strings.ToLower(a), "=")
	for pre := range t.showopt {
		if rest, ok := strings.CutPrefix(k, pre); ok {
			rest = strings.ReplaceAll(rest, "_", "-")
			if t.noun[rest] {
				return true
			}
			if i := strings.LastIndexByte(rest, '-'); i >= 0 && t.noun[rest[i+1:]] {
				return true
			}
		}
	}
	return false
}

// secretRef: a word in a secret store's reference form
// (sdb://vault/secret/prod/db/password, ref+vault://…): a scheme of
// refscheme, not a network address, so its path's last part is read as a
// lookup's key.
func secretRef(t *credWordTable, w string) bool {
	scheme, _, ok := strings.Cut(w, "://")
	return ok && t.refscheme[scheme]
}

// optNounFlag: a flag (no value after =) whose name ends in a plural
// credential noun (--root-keys, --session-keys, --with-secrets): on a read
// verb it asks for those credentials to be printed; a public word in it
// (--ssh-public-keys) says only the public half.
func optNounFlag(t *credWordTable, k string) bool {
	if !strings.HasPrefix(k, "--") {
		return false
	}
	i := strings.LastIndexByte(k, '-')
	if i < 2 || !t.optnoun[k[i+1:]] {
		return false
	}
	return !strings.Contains(k, "public") && !strings.Contains(k, "pub-")
}
