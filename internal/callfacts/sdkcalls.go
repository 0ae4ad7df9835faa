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

var sdkCalls = sync.OnceValue(func() []sdkCall {
	var out []sdkCall
	datatable.Must("sdkcalls.txt", sdkCallsText, 3, func(l datatable.Line) error {
		re, err := regexp.Compile(l.Fields[1])
		if err != nil {
			return l.Errorf("CALLS %q: %v", l.Fields[1], err)
		}
		out = append(out, sdkCall{modules: strings.Split(l.Fields[0], "|"), calls: re, what: strings.Join(l.Fields[2:], " ")})
		return nil
	})
	return out
})

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
		if named && s.calls.MatchString(c.Payload) {
			return s.what
		}
	}
	return ""
}
