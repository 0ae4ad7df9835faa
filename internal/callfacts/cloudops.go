package callfacts

import (
	_ "embed"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/warden-dev/warden/internal/datatable"
)

// cloudOpsText describes cloud and provider CLIs by the structure of
// their operation names: where the operation stands and what its verb
// does (cloudops.txt).
//
//go:embed cloudops.txt
var cloudOpsText string

// CloudOp is what one operation of a cloud or provider CLI does, read
// from its name: aws ec2 stop-instances is verb stop, class change.
type CloudOp struct {
	Op    string   // the operation as written (stop-instances, StopInstances, stop)
	Verb  string   // its verb, lower case
	Class string   // read, change, destroy, secret or local; "" when no list names the verb
	Words []string // the command words before it and the operation's other parts (ec2, instances)
	// Config: a local operation of the CLI's own settings (gcloud config
	// set, az account set): where it points next, judged by the rules on
	// production contexts
	Config bool
	// Plan: an operation on a plan of changes (create-change-set,
	// delete-change-set, previews create): read, whatever its verb says
	Plan bool
}

type cloudTable struct {
	style                                        map[string]string
	skip, localIn                                map[string]map[string]bool
	class                                        map[string]string
	pass, local, localOp, track, readOp          map[string]bool
	secretVerb, secretNoun, secretOp, secretFlag map[string]bool
	statusOpt, statusDestroy, fleetOpt, fleetAll map[string]bool
	keepNoun, keepVerb, localFlag                map[string]bool
	planNoun, planVerb                           map[string]bool
	localFlags                                   []string
	secretFlags                                  []string // secretFlag's words, for Has
}

var cloudTab = sync.OnceValue(func() *cloudTable {
	t := &cloudTable{style: map[string]string{}, skip: map[string]map[string]bool{}, localIn: map[string]map[string]bool{}, class: map[string]string{}}
	sets := map[string]*map[string]bool{"pass": &t.pass, "local": &t.local, "local-op": &t.localOp, "read-op": &t.readOp, "track": &t.track,
		"secret-verb": &t.secretVerb, "secret-noun": &t.secretNoun, "secret-op": &t.secretOp, "secret-flag": &t.secretFlag,
		"local-flag": &t.localFlag, "keep-noun": &t.keepNoun, "keep-verb": &t.keepVerb, "status-opt": &t.statusOpt, "status-destroy": &t.statusDestroy, "fleet-opt": &t.fleetOpt, "fleet-all": &t.fleetAll,
		"plan-noun": &t.planNoun, "plan-verb": &t.planVerb}
	for _, m := range sets {
		*m = map[string]bool{}
	}
	datatable.Must("cloudops.txt", cloudOpsText, 2, func(l datatable.Line) error {
		f := l.Fields
		switch k := f[0]; {
		case k == "cli":
			if len(f) != 3 || f[2] != "dashed" && f[2] != "words" && f[2] != "camel" {
				return l.Errorf("want cli PROGRAM dashed|words|camel")
			}
			t.style[f[1]] = f[2]
		case k == "skip" || k == "local-in":
			if len(f) < 3 {
				return l.Errorf("want %s PROGRAM WORDS…", k)
			}
			m := map[string]map[string]map[string]bool{"skip": t.skip, "local-in": t.localIn}[k]
			if m[f[1]] == nil {
				m[f[1]] = map[string]bool{}
			}
			for _, w := range f[2:] {
				m[f[1]][w] = true
			}
		case k == "read" || k == "change" || k == "destroy":
			for _, w := range f[1:] {
				if c := t.class[w]; c != "" && c != k {
					return l.Errorf("verb %q is both %s and %s: keep it in one list", w, c, k)
				}
				t.class[w] = k
			}
		case sets[k] != nil:
			for _, w := range f[1:] {
				(*sets[k])[w] = true
			}
		default:
			return l.Errorf("unknown list %q: want cli, skip, read, change, destroy, pass, local, local-in, local-op, read-op, track, secret-verb, secret-noun, secret-op, secret-flag, local-flag, keep-noun, keep-verb, plan-noun, plan-verb, status-opt, status-destroy, fleet-opt or fleet-all", k)
		}
		return nil
	})
	for f := range t.secretFlag {
		t.secretFlags = append(t.secretFlags, f)
	}
	for f := range t.localFlag {
		t.localFlags = append(t.localFlags, f)
	}
	return t
})

// CloudOpTools are the programs cloudops.txt reads (sorted, shared: do
// not modify).
func CloudOpTools() []string { return cloudOpTools() }

var cloudOpTools = sync.OnceValue(func() []string {
	var out []string
	for n := range cloudTab().style {
		out = append(out, n)
	}
	sort.Strings(out)
	return slices.Clip(out)
})

// IsCloudCLI: cloudops.txt describes program name.
func IsCloudCLI(name string) bool { return cloudTab().style[name] != "" }

// CloudOp reads c's operation by its CLI's style (cloudops.txt); nil
// when c is no cloud CLI or names no operation the lists know.
func (c *Cmd) CloudOp() *CloudOp {
	t := cloudTab()
	style := t.style[c.Name]
	if style == "" || len(c.Pos) == 0 {
		return nil
	}
	pos := c.Pos
	if g := c.tool().globals; len(g) > 0 {
		pos = globalsAside(c.Args, g)
	}
	for len(pos) > 0 && t.track[strings.ToLower(pos[0])] {
		pos = pos[1:] // gcloud beta …
	}
	if len(pos) == 0 {
		return nil
	}
	first := strings.ToLower(pos[0])
	if t.skip[c.Name][first] && style == "dashed" {
		return nil // aws s3 cp: the transfer commands, judged by the copy rules
	}
	var op *CloudOp
	switch style {
	case "dashed":
		if len(pos) < 2 {
			if first == "help" {
				return &CloudOp{Op: first, Verb: first, Class: "read"}
			}
			return nil
		}
		op = t.dashed(pos[1], []string{first})
	case "camel":
		for i, p := range pos {
			if i > 3 {
				break
			}
			if w := camelWords(p); len(w) > 1 {
				op = t.parts(p, w, lowerAll(pos[:i]))
				break
			}
		}
		if op == nil {
			op = t.words(c.Name, pos) // aliyun oss rm, tccli configure
		}
	default:
		op = t.words(c.Name, pos)
	}
	if op == nil {
		return nil
	}
	switch {
	case t.readOp[strings.ToLower(op.Op)]:
		op.Class = "read" // logs start-query: a query run, nothing changed
	case t.localOp[strings.ToLower(op.Op)]:
		op.Class = "local" // get-credentials writes the kubeconfig here; it prints nothing
	case t.secretOp[strings.ToLower(op.Op)] || t.secretVerb[op.Verb] && (t.secretNamed(op) || c.Has(t.secretFlags...)):
		op.Class = "secret"
	case c.Has(t.localFlags...):
		op.Class = "local" // particle flash --usb: a device attached here
	case t.local[first] || t.localIn[c.Name][first]:
		op.Class, op.Config = "local", true
	case op.Class == "change" && t.keepVerb[op.Verb] && slices.ContainsFunc(op.Words, func(w string) bool { return t.keepNoun[w] }):
		op.Class = "read" // create-db-snapshot, sql backups create: a copy kept where it is
	case (op.Class == "change" || op.Class == "destroy") && t.planVerb[op.Verb] && t.planNamed(op):
		op.Class, op.Plan = "read", true // create-change-set, infra-manager previews create: a plan made or dropped, nothing real changed
	case op.Class == "change" && c.statusEnds():
		op.Class = "destroy" // update-certificate --new-status REVOKED
	}
	return op
}

// planNamed reports whether op's nouns name a plan of changes rather
// than a resource: a change set, a preview (cloudformation
// create-change-set: words cloudformation, change, set).
func (t *cloudTable) planNamed(op *CloudOp) bool {
	for i, w := range op.Words {
		if t.planNoun[w] || i+1 < len(op.Words) && t.planNoun[w+"-"+op.Words[i+1]] {
			return true
		}
	}
	return false
}

// dashed reads an operation named verb-noun (describe-instances,
// batch-get-item: the pass words before the verb are set aside).
func (t *cloudTable) dashed(op string, before []string) *CloudOp {
	return t.parts(op, strings.Split(strings.ToLower(op), "-"), before)
}

// parts makes the CloudOp of op split into its words, verb first.
func (t *cloudTable) parts(op string, w []string, before []string) *CloudOp {
	for len(w) > 1 && t.pass[w[0]] {
		w = w[1:]
	}
	if len(w) == 0 {
		return nil
	}
	v := w[0]
	if strings.EqualFold(op, "what-if") {
		v = "what-if"
	}
	return &CloudOp{Op: op, Verb: v, Class: t.class[v], Words: append(append([]string(nil), before...), w[1:]...)}
}

// words finds the first command word that is a verb of the lists (or
// one of secret-verb's), whole or as the first or last part of a word
// joined by -.
func (t *cloudTable) words(prog string, pos []string) *CloudOp {
	for i, p := range pos {
		if i > 5 || strings.ContainsAny(p, "/=@ .:$\"'{[") {
			break
		}
		if w := camelWords(strings.ToUpper(p[:1]) + p[1:]); len(w) > 1 && p[0] >= 'a' && p[0] <= 'z' && t.class[w[0]] != "" {
			return t.parts(p, w, lowerAll(pos[:i])) // netlify api deleteSite: an operation id, verbNoun
		}
		l := strings.ToLower(p)
		if t.skip[prog][l] {
			continue // gcloud run services update: run is the group
		}
		known := func(w string) bool { return t.class[w] != "" || t.secretVerb[w] }
		parts := strings.Split(l, "-")
		for len(parts) > 1 && t.pass[parts[0]] {
			parts = parts[1:]
		}
		before := lowerAll(pos[:i])
		switch {
		case known(l) || l == "what-if":
			return &CloudOp{Op: p, Verb: l, Class: t.class[l], Words: before}
		case len(parts) > 1 && known(parts[0]):
			return t.parts(p, parts, before)
		case len(parts) > 1 && known(parts[len(parts)-1]):
			if i+1 < len(pos) && i < 5 && t.leadsWithVerb(pos[i+1], known) {
				continue // az datafactory pipeline-run query-by-factory: a group named noun-verb, its operation next
			}
			v := parts[len(parts)-1]
			return &CloudOp{Op: p, Verb: v, Class: t.class[v], Words: append(before, parts[:len(parts)-1]...)} // ibmcloud is instance-stop
		}
	}
	return nil
}

// leadsWithVerb: p is an operation word that starts with a verb of the
// lists (list-runs, query-by-factory, show).
func (t *cloudTable) leadsWithVerb(p string, known func(string) bool) bool {
	if p == "" || strings.ContainsAny(p, "/=@ .:$\"'{[") || p[0] == '-' {
		return false
	}
	v, _, _ := strings.Cut(strings.ToLower(p), "-")
	return known(v)
}

// secretNamed: the command groups before the operation (gcloud secrets
// versions access, az keyvault secret show) or the operation's last word
// or two (get-login-password, get-secret-value) name a credential;
// get-account-password-policy names a policy.
func (t *cloudTable) secretNamed(op *CloudOp) bool {
	w := op.Words
	n := len(w) - len(t.opParts(op))
	for _, g := range w[:max(n, 0)] {
		if t.secretNoun[g] {
			return true
		}
	}
	if len(w) == 0 || n >= len(w) {
		return false
	}
	last := w[len(w)-1]
	return t.secretNoun[last] || len(w)-2 >= n && t.secretNoun[w[len(w)-2]+"-"+last]
}

// opParts are the words of op's own name after its verb.
func (t *cloudTable) opParts(op *CloudOp) []string {
	parts := strings.Split(strings.ToLower(op.Op), "-")
	if len(camelWords(op.Op)) > 1 {
		parts = camelWords(op.Op)
	}
	for i, p := range parts {
		if p == op.Verb {
			return parts[i+1:]
		}
	}
	return nil
}

// statusEnds: a status option of c is set to a value that ends the
// resource for good (--new-status REVOKED).
func (c *Cmd) statusEnds() bool {
	t := cloudTab()
	for _, v := range c.OptValues(t.statusOpt) {
		if t.statusDestroy[strings.ToLower(strings.Trim(v, `"'`))] {
			return true
		}
	}
	return false
}

// CloudFleetAll is the value of c's option aiming a change at many
// devices or machines that names every one of them (--targets
// …thinggroup/all-devices, --instance-ids '*'), "" for none.
func (c *Cmd) CloudFleetAll() string {
	t := cloudTab()
	for _, v := range c.OptValues(t.fleetOpt) {
		v = strings.Trim(v, `"'`)
		last := strings.ToLower(v)
		if j := strings.LastIndexAny(last, "/:"); j >= 0 {
			last = last[j+1:] // arn:…:thinggroup/all-devices: the group's name
		}
		if t.fleetAll[last] {
			return v
		}
		for _, w := range strings.FieldsFunc(last, func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == ',' }) {
			if t.fleetAll[w] {
				return v
			}
		}
	}
	return ""
}

// camelWords splits StopInstances into stop and instances; nil for a
// word that is not CamelCase.
func camelWords(s string) []string {
	if s == "" || !unicode.IsUpper(rune(s[0])) || strings.ToUpper(s) == s {
		return nil
	}
	var out []string
	start := 0
	for i := 1; i < len(s); i++ {
		if unicode.IsUpper(rune(s[i])) && !unicode.IsUpper(rune(s[i-1])) {
			out = append(out, strings.ToLower(s[start:i]))
			start = i
		}
		if !unicode.IsLetter(rune(s[i])) && !unicode.IsDigit(rune(s[i])) {
			return nil
		}
	}
	return append(out, strings.ToLower(s[start:]))
}

func lowerAll(ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = strings.ToLower(w)
	}
	return out
}

// cloudEffect is what a cloud CLI's operation does to what lives there:
// a change writes, a destroy deletes; help, dry runs and reads nothing.
func cloudEffect(c *Cmd) (Effect, string) {
	op := c.CloudOp()
	if op == nil || c.DryRun() || c.Has("--help", "--validate-only", "--generate-cli-skeleton") || slices.Contains(c.Pos, "help") {
		return EffectNone, ""
	}
	switch op.Class {
	case "change":
		return EffectWrite, c.Name + " " + op.Op + " changes a cloud resource (cloudops.txt)"
	case "destroy":
		return EffectDelete, c.Name + " " + op.Op + " destroys a cloud resource (cloudops.txt)"
	}
	return EffectNone, ""
}

// globalsAside are args' positional words without the values of the
// CLI's global options wherever they stand (aws ec2 --region eu-west-1
// stop-instances: the facts set aside only those before the service).
func globalsAside(args []string, globals map[string]bool) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i+1:]...)
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			if globals[a] {
				i++
			}
			continue
		}
		out = append(out, a)
	}
	return out
}
