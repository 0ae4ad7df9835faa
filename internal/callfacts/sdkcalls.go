package callfacts

import (
	_ "embed"
	"regexp"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// An interpreter's code can hide a service's deleting command as library
// calls: `python -c "from huggingface_hub import delete_repo;
// delete_repo('acme/m')"` is huggingface-cli repo delete. sdkcalls.txt
// lists, as data, each SDK's import names and deleting calls.

//go:embed sdkcalls.txt
var sdkCallsText string

// sdkCall is one line of sdkcalls.txt.
type sdkCall struct {
	modules []string
	calls   *regexp.Regexp
	what    string
}

// sdkTable is sdkcalls.txt read: the deleting calls, and the two signs
// that what they delete is not a service's shared resource (@local: the
// client is a store on this machine; @test: the resource's name says the
// project's tests made it).
type sdkTable struct {
	calls       []sdkCall
	changes     []sdkCall // @change lines: administrative changes
	local, test *regexp.Regexp
	dryRun      *regexp.Regexp // @dryrun: the calls are asked to change nothing
}

var sdkCallTable = sync.OnceValue(func() sdkTable {
	var t sdkTable
	datatable.Must("sdkcalls.txt", sdkCallsText, 3, func(l datatable.Line) error {
		if l.Fields[0] == "@change" {
			if len(l.Fields) < 4 {
				return l.Errorf("@change: want MODULES CALLS WHAT")
			}
			re, err := regexp.Compile(l.Fields[2])
			if err != nil {
				return l.Errorf("CALLS %q: %v", l.Fields[2], err)
			}
			t.changes = append(t.changes, sdkCall{modules: strings.Split(l.Fields[1], "|"), calls: re, what: strings.Join(l.Fields[3:], " ")})
			return nil
		}
		re, err := regexp.Compile(l.Fields[1])
		if err != nil {
			return l.Errorf("CALLS %q: %v", l.Fields[1], err)
		}
		switch l.Fields[0] {
		case "@local":
			if t.local != nil {
				// a later @local line adds its stores (a device's
				// simulator, a virtual bus) to the earlier ones
				re = regexp.MustCompile(t.local.String() + "|" + re.String())
			}
			t.local = re
		case "@test":
			t.test = re
		case "@dryrun":
			t.dryRun = re
		default:
			t.calls = append(t.calls, sdkCall{modules: strings.Split(l.Fields[0], "|"), calls: re, what: strings.Join(l.Fields[2:], " ")})
		}
		return nil
	})
	return t
})

func sdkCalls() []sdkCall { return sdkCallTable().calls }

// sdkQuoted is the first quoted literal of a call's arguments.
var sdkQuoted = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*\(\s*(?:\w+\s*=\s*)?['"]([^'"]*)['"]`) })

// sdkSpared: the deleting calls s finds in code delete nothing shared:
// the client is a local store (chromadb.PersistentClient(path="./db"),
// QdrantClient(":memory:"), weaviate.connect_to_local()), or every call
// names, as a literal, a resource whose name says the tests made it
// (delete_index('kb-ci-test-4821'), delete_collection("scratch")). A call
// with no literal name (delete_all=True, a variable) is not spared.
func sdkSpared(s sdkCall, code string) bool {
	t := sdkCallTable()
	if t.local != nil && t.local.MatchString(code) || SDKDryRun(code) {
		return true
	}
	if t.test == nil {
		return false
	}
	hits := s.calls.FindAllStringIndex(code, 8)
	for _, h := range hits {
		m := sdkQuoted().FindStringSubmatch(code[h[1]:])
		if m == nil || !t.test.MatchString(m[1]) || prodNamed(m[1]) {
			return false
		}
	}
	return len(hits) > 0
}

// SDKLocal: code makes its client on a store of this machine, in memory
// or a fake (sdkcalls.txt @local).
func SDKLocal(code string) bool {
	t := sdkCallTable()
	return t.local != nil && t.local.MatchString(code)
}

// SDKTestName: a resource name says the tests or a scratch run made it
// (sdkcalls.txt @test), and no word of production is in it.
func SDKTestName(name string) bool {
	t := sdkCallTable()
	return t.test != nil && t.test.MatchString(name) && !prodNamed(name)
}

// SDKDestroy says what an interpreter's inline code deletes through a
// service's SDK by sdkcalls.txt ("a Hugging Face Hub repository or its
// files"), "" when it calls none.
func (c *Cmd) SDKDestroy() string {
	if c.Payload == "" || !IsInterpreter(c.Name) {
		return ""
	}
	for _, s := range sdkCalls() {
		named := false
		for _, m := range s.modules {
			if strings.Contains(c.Payload, m) {
				named = true
				break
			}
		}
		if named && s.calls.MatchString(c.Payload) && !sdkSpared(s, c.Payload) {
			return s.what
		}
	}
	return ""
}

// prodNamed: a resource name with a word of production in it
// (prod-test-copy, live_tmp).
func prodNamed(name string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		switch w {
		case "prod", "production", "prd", "live", "main", "master", "primary":
			return true
		}
	}
	return false
}

// SDKChange says what administrative change an interpreter's inline code
// makes through a service's SDK by sdkcalls.txt's @change lines ("a
// Firebase user's custom claims"), "" when it makes none or its client
// is a store of this machine or an emulator (@local).
func (c *Cmd) SDKChange() string {
	if c.Payload == "" || !IsInterpreter(c.Name) || SDKLocal(c.Payload) || SDKDryRun(c.Payload) {
		return ""
	}
	asks := serialDev.MatchString(c.Payload) && !serialSets(c.Payload) // every line written asks the device (interpeffects_files.go)
	for _, s := range sdkCallTable().changes {
		if asks && strings.Contains(s.calls.String(), `\.write\(`) {
			continue
		}
		for _, m := range s.modules {
			if strings.Contains(c.Payload, m) && s.calls.MatchString(c.Payload) {
				return s.what
			}
		}
	}
	return ""
}

// SDKDryRun: the code asks the service to check its calls and change
// nothing (boto3's DryRun=True, dry_run=True): terminate_instances(…,
// DryRun=True) answers DryRunOperation and ends no instance
// (sdkcalls.txt @dryrun).
func SDKDryRun(code string) bool {
	t := sdkCallTable()
	return t.dryRun != nil && t.dryRun.MatchString(code) && !sdkRealRun().MatchString(code)
}

// sdkRealRun: the same code also runs a call for real (a DryRun=True
// check, then DryRun=False): that call changes things.
var sdkRealRun = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:DryRun|dry_run|dryRun)\s*[=:]\s*(?:False|false)\b`)
})
