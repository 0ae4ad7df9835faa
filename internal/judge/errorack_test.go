package judge

import (
	"strings"
	"testing"
)

const goTestFailure = "exit code 1: --- FAIL: TestParseEmpty (0.00s)\n    parser_test.go:41: Parse(\"\") = <nil>, want ErrEmpty\nFAIL\nFAIL\tgithub.com/acme/cfg/parser\t0.004s"

func TestCheckAckOnRealMessages(t *testing.T) {
	cases := []struct {
		name          string
		tool, target  string
		err           string
		texts         []string
		want          Ack
		wantMatchPart string
	}{
		{"names the failing test and the cause", "Bash", "go test ./parser/...", goTestFailure,
			[]string{"TestParseEmpty fails because Parse returns nil for empty input instead of ErrEmpty. I'll add the empty-input check to parser.go."},
			AckFound, "parseempty"},
		{"carries on as if nothing happened", "Bash", "go test ./parser/...", goTestFailure,
			[]string{"Now let me update the README with the new flag."}, AckMissing, ""},
		{"says nothing at all", "Bash", "go test ./parser/...", goTestFailure, nil, AckMissing, "no text"},
		{"reacts but does not say to what", "Bash", "go test ./parser/...", goTestFailure,
			[]string{"Hmm, that didn't work. Let me try another approach."}, AckUnclear, "acknowledging"},
		{"mentions the test without reacting", "Bash", "go test ./parser/...", goTestFailure,
			[]string{"Let me look at TestParseEmpty again and adjust the parser."}, AckUnclear, "mentions"},
		{"edit whose old_string is gone", "Edit", "/home/dev/acme/internal/store/sqlite.go",
			"String to replace not found in file.\nString: func Open(path string) (*Store, error) {",
			[]string{"The edit failed: Open's signature in sqlite.go changed since I read it. Re-reading the file first."},
			AckFound, "sqlite"},
		{"npm with no package.json", "Bash", "npm install lodash",
			"npm ERR! code ENOENT\nnpm ERR! syscall open\nnpm ERR! path /app/package.json\nnpm ERR! enoent Could not read package.json",
			[]string{"There is no package.json in /app, so npm install cannot work here; I'll run npm init first."},
			AckFound, "npm"},
		{"permission denied, acknowledged with curly apostrophe", "Bash", "./deploy.sh --prod",
			"bash: ./deploy.sh: Permission denied",
			[]string{"deploy.sh isn’t executable; I'll chmod +x it and retry."}, AckFound, "deploy"},
		{"a cheerful summary is no acknowledgement", "Bash", "make build",
			"exit code 2: main.c:12:5: error: implicit declaration of function 'frobnicate'",
			[]string{"Great, the project structure looks good. Next I'll add the CLI flags."}, AckMissing, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, why := CheckAck(AckInput{Error: c.err, Tool: c.tool, Target: c.target, Texts: c.texts})
			if got != c.want {
				t.Fatalf("CheckAck = %v (%s), want %v; references %v", got, why, c.want, AckReferences(AckInput{Error: c.err, Tool: c.tool, Target: c.target}))
			}
			if c.wantMatchPart != "" && !strings.Contains(why, c.wantMatchPart) {
				t.Errorf("why %q does not mention %q", why, c.wantMatchPart)
			}
		})
	}
}

func TestAckReferencesSkipGenericWords(t *testing.T) {
	refs := AckReferences(AckInput{Tool: "Bash", Target: "go test -run TestParseEmpty ./parser/...", Error: goTestFailure})
	for _, bad := range []string{"fail", "exit", "code", "want", "go", "1", "41"} {
		if contains(refs, bad) {
			t.Errorf("references %v hold the generic %q", refs, bad)
		}
	}
	for _, good := range []string{"test", "testparseempty", "parser", "errempty"} {
		if !contains(refs, good) {
			t.Errorf("references %v miss %q", refs, good)
		}
	}
}

// ackTranscript: Claude runs the tests (tu1), which fail; then explains
// and edits (tu2) in a new message. m1 also made a parallel call (tu1b).
const ackTranscript = `{"type":"user","message":{"role":"user","content":"Make the parser accept empty input."}}
{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"I'll run the tests first."}]}}
{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"tu1","name":"Bash","input":{"command":"go test ./..."}}]}}
{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"tu1b","name":"Read","input":{"file_path":"/p/parser.go"}}]}}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"tu1","is_error":true,"content":"FAIL TestParseEmpty"}]}}
{"type":"assistant","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"TestParseEmpty fails because of the nil return."}]}}
{"type":"assistant","message":{"id":"m2","role":"assistant","content":[{"type":"tool_use","id":"tu2","name":"Edit","input":{"file_path":"/p/parser.go"}}]}}
`

func TestAckWindowOf(t *testing.T) {
	tr := ParseTranscript(strings.NewReader(ackTranscript))
	cases := []struct {
		name              string
		failed, current   string
		texts             []string
		same, currentSeen bool
	}{
		{"text since the failure only", "tu1", "tu2", []string{"TestParseEmpty fails because of the nil return."}, false, true},
		{"parallel call in the failing message", "tu1", "tu1b", nil, true, true},
		{"transcript lags the current call", "tu1", "tu9", []string{"TestParseEmpty fails because of the nil return."}, false, false},
		{"failure out of the kept tail: all kept text is after it", "tu0", "tu2", []string{"I'll run the tests first.", "TestParseEmpty fails because of the nil return."}, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := AckWindowOf(tr, c.failed, c.current)
			if w.SameMessage != c.same || w.Current != c.currentSeen || strings.Join(w.Texts, "|") != strings.Join(c.texts, "|") {
				t.Errorf("AckWindowOf(%s, %s) = %+v, want texts %q same %v current %v", c.failed, c.current, w, c.texts, c.same, c.currentSeen)
			}
		})
	}
}

func TestAnswerNotFailure(t *testing.T) {
	cases := []struct {
		cmd, err string
		want     bool
	}{
		{"grep -rn TODO internal/", "Exit code 1", true},
		{"cd web && rg 'useEffect' src", "Exit code 1", true},
		{"diff -u old.txt new.txt", "Exit code 1", true},
		{"go vet ./... | grep shadow", "Exit code 1", true},
		{"grep -rn TODO internal/", "Exit code 2\ngrep: internal/: No such file or directory", false},
		{"go test ./...", "Exit code 1", false},
		{"grep -c x f && make", "Exit code 1", false},
	}
	for _, c := range cases {
		if got := AnswerNotFailure("Bash", c.cmd, c.err); got != c.want {
			t.Errorf("AnswerNotFailure(%q, %q) = %v, want %v", c.cmd, c.err, got, c.want)
		}
	}
	if AnswerNotFailure("Read", "grep", "Exit code 1") {
		t.Error("only Bash answers by exit code")
	}
}
