package callfacts

import (
	_ "embed"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// sinksText lists the options through which a program carries what it
// sends (sinks.txt): a request's body, a message's text.
//
//go:embed sinks.txt
var sinksText string

// sinkTable is sinks.txt read: kind → program ("*" for any) → options.
var sinkTable = sync.OnceValue(func() map[string]map[string]map[string]bool {
	t := map[string]map[string]map[string]bool{}
	datatable.Must("sinks.txt", sinksText, 3, func(l datatable.Line) error {
		kind := l.Fields[0]
		if kind != "body" && kind != "message" {
			return l.Errorf("kind %q, want body or message", kind)
		}
		if t[kind] == nil {
			t[kind] = map[string]map[string]bool{}
		}
		for _, prog := range strings.Split(l.Fields[1], ",") {
			if t[kind][prog] == nil {
				t[kind][prog] = map[string]bool{}
			}
			for _, o := range l.Fields[2:] {
				if !strings.HasPrefix(o, "-") {
					return l.Errorf("option %q does not start with -", o)
				}
				t[kind][prog][o] = true
			}
		}
		return nil
	})
	return t
})

// SinkOpts are the options of prog that carry what it sends of kind
// (sinks.txt): "body", an HTTP request's data (curl -d, wget
// --post-data); "message", the text of a message others read (--body,
// --text). prog "*" gives the options listed for any program. The set is
// shared: callers must not change it.
func SinkOpts(kind, prog string) map[string]bool {
	return sinkTable()[kind][prog]
}
