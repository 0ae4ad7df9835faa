package callfacts

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// decodeInput makes the map json.Unmarshal makes, on every input: tool
// inputs of every corpus line (escaped as Go and as Claude Code write
// them, with a description, a timeout, a flag), each cut short at every
// byte, and hand-written edge cases.
func TestDecodeInputAgrees(t *testing.T) {
	inputs := []string{
		`{}`, ` { } `, `{"command":"ls"}`, `{"command" : "ls" , "timeout" : 120000 }`,
		`{"a":"\u00e9\n\t\"\\\/\b\f\r"}`, `{"a":"\ud83d\ude00"}`, `{"a":"\ud83d"}`, `{"a":"\u0000"}`,
		`{"a":"é"}`, "{\"a\":\"\xff\"}", "{\"a\":\"x\ny\"}", `{"a":"\x"}`, `{"a":"\u12"}`, `{"a":"\u12G4"}`,
		`{"a":1e400}`, `{"a":-0.5e-3}`, `{"a":01}`, `{"a":1.}`, `{"a":-}`, `{"a":1.5.3}`, `{"a":1E+2}`,
		`{"a":true,"b":false,"c":null}`, `{"a":truex}`, `{"a":nul}`, `{"a":[1]}`, `{"a":{"b":"c"}}`,
		`{"a":"x","a":"y"}`, `{"a":"x"} x`, `{"a":"x",}`, `{,}`, `{"a"}`, `{"a":}`, `["a"]`, `"a"`, `null`, ``, `{`,
		`{"a":"x"}{"b":"y"}`, "{\"a\":\"x\"}\n", `{"file_path":"/x","content":"a\u003cb\u0026c"}`,
	}
	files, _ := filepath.Glob("../policy/corpus/*.txt")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			_, l, _ = strings.Cut(l, " ")
			if strings.HasPrefix(l, `{"`) {
				var p struct {
					Input json.RawMessage `json:"tool_input"`
				}
				if json.Unmarshal([]byte(l), &p) == nil && len(p.Input) > 0 {
					inputs = append(inputs, string(p.Input))
				}
				continue
			}
			goEsc, _ := json.Marshal(map[string]any{"command": l, "description": "run " + l, "timeout": 120000, "run_in_background": false})
			var raw bytes.Buffer
			enc := json.NewEncoder(&raw)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(map[string]string{"command": l})
			inputs = append(inputs, string(goEsc), raw.String())
		}
	}
	if len(inputs) < 5000 {
		t.Fatalf("only %d inputs", len(inputs))
	}
	fast := 0
	check := func(in string) {
		var want map[string]any
		_ = json.Unmarshal([]byte(in), &want)
		got := decodeInput([]byte(in))
		if !reflect.DeepEqual(got, want) || (got == nil) != (want == nil) {
			t.Errorf("%q: decodeInput gives %#v, encoding/json %#v", in, got, want)
		}
	}
	for n, in := range inputs {
		if _, ok := flatObject([]byte(in)); ok {
			fast++
		}
		check(in)
		if n%50 == 0 {
			for i := range in {
				check(in[:i])
			}
		}
	}
	if fast < len(inputs)/2 {
		t.Errorf("only %d of %d inputs read directly", fast, len(inputs))
	}
}
