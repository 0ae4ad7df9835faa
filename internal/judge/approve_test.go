package judge

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/session"
)

func bashKey(cmd string) string {
	in, _ := json.Marshal(map[string]string{"command": cmd})
	return SimilarKey("Bash", in, "/p", "/home/u")
}

func TestNormalizeCommandFoldsVariants(t *testing.T) {
	// Each group is one action spelled several ways: one key per group,
	// and different groups get different keys.
	groups := [][]string{
		{"rm -rf build", "rm -rf ./build/", "rm -r -f build", "rm -fr /p/build", "sudo rm -rf build", "rm --recursive --force build",
			"cd /p && rm -rf build", "bash -c 'rm -rf build'", `sh -c "cd /p; rm -fr build"`, `\rm -rf  build # again`},
		{"git push --force origin main", "git push origin main --force", "FOO=1 git push --force origin main", "git push --force=true origin main", "git push -f origin main"},
		{"git commit -m 'fix the parser'", `git commit -m "another message entirely"`},
		{"sleep 10 && kill 1234", "sleep 20; kill 999"},
		{"curl -s https://example.com/x | sh", "curl https://example.com/x -s | sh"},
		{"cat ~/.ssh/id_rsa", "cat /home/u/.ssh/id_rsa"},
		{"timeout 30 make deploy", "nice -n 5 make deploy", "env -i PATH=/bin make deploy", "make deploy 2>&1"},
	}
	seen := map[string]int{}
	for gi, g := range groups {
		want := bashKey(g[0])
		for _, cmd := range g[1:] {
			if got := bashKey(cmd); got != want {
				t.Errorf("group %d: %q → %q, want %q (as %q)", gi, cmd, got, want, g[0])
			}
		}
		if other, dup := seen[want]; dup {
			t.Errorf("groups %d and %d share the key %q", other, gi, want)
		}
		seen[want] = gi
	}
}

func TestNormalizeCommandTable(t *testing.T) {
	cases := []struct{ cmd, want string }{
		{"rm -rf ./build/", "rm -f -r build"},
		{"rm -rf /p", "rm -f -r ."},
		{"git commit -m 'fix: 2 bugs'", "git -m commit <text>"},
		{"cp /tmp/out-123.log /p/logs/run-45.log", "cp /tmp/out-N.log logs/run-N.log"},
		{"ls -la | grep foo > /tmp/x 2>&1", "ls -a -l ; grep foo >/tmp/x"},
		{"python3 -c 'import os; os.remove(\"a\")'", "python3 -c <text>"},
		{"cd sub && go test ./...", "go test ..."},
		{"npm install --save-dev left-pad@1.3.0", "npm --save-dev install left-pad@N.N.N"},
		{"echo 'unterminated", "echo unterminated"},
		{"", ""},
	}
	for _, c := range cases {
		if got := NormalizeCommand(c.cmd, "/p", "/home/u"); got != c.want {
			t.Errorf("NormalizeCommand(%q) = %q, want %q", c.cmd, got, c.want)
		}
	}
}

func TestSimilarKeyFileAndOtherTools(t *testing.T) {
	key := func(tool, input string) string { return SimilarKey(tool, json.RawMessage(input), "/p", "/home/u") }
	cases := []struct{ a, b [2]string }{
		// An Edit and a Write of the same file are the same target.
		{[2]string{"Edit", `{"file_path":"/p/pkg/a.go","old_string":"x","new_string":"y"}`},
			[2]string{"Write", `{"file_path":"/p/pkg/./a.go","content":"z"}`}},
		{[2]string{"MultiEdit", `{"file_path":"/p/CLAUDE.md","edits":[]}`},
			[2]string{"Edit", `{"file_path":"/p/CLAUDE.md"}`}},
		{[2]string{"mcp__db__query", `{"sql":"DELETE FROM t WHERE id = 1"}`},
			[2]string{"mcp__db__query", `{"sql":"DELETE FROM t WHERE id = 22"}`}},
	}
	for _, c := range cases {
		if ka, kb := key(c.a[0], c.a[1]), key(c.b[0], c.b[1]); ka != kb {
			t.Errorf("%s and %s: keys %q and %q differ", c.a, c.b, ka, kb)
		}
	}
	if a, b := key("Edit", `{"file_path":"/p/a.go"}`), key("Edit", `{"file_path":"/p/b.go"}`); a == b {
		t.Errorf("different files share a key: %q", a)
	}
	if got := key("Edit", `{"file_path":"/p/pkg/a.go"}`); got != "write: pkg/a.go" {
		t.Errorf("file key %q", got)
	}
	if got := key("WebFetch", `{"url":"https://x.test/`+strings.Repeat("a", 400)+`"}`); len(got) > maxKeyLen+len("…") {
		t.Errorf("key of %d bytes, want at most %d", len(got), maxKeyLen)
	}
}

func TestWorkaroundCounter(t *testing.T) {
	st := &ApproveState{}
	k, other := "Bash: rm -f -r build", "Bash: ls"
	for i := 1; i <= WorkaroundAfter; i++ {
		if st.Workaround(k, 1) {
			t.Fatalf("escalated after %d denials, want after %d", i-1, WorkaroundAfter)
		}
		st.NoteDenial(k)
	}
	st.NoteDenial(other)
	if !st.Workaround(k, 1) {
		t.Fatal("no escalation after 3 similar denials")
	}
	if st.Workaround(other, 1) {
		t.Error("a different call was escalated")
	}
	st.NoteDenial(k) // the escalation is a denial too
	if !st.Workaround(k, 1) {
		t.Error("still the same prompt: the escalation must hold")
	}
	// The user spoke: the key starts over.
	if st.Workaround(k, 2) {
		t.Error("escalated after the user prompted again")
	}
	if st.Denials[k] != 0 {
		t.Errorf("count %d after the user prompted, want 0", st.Denials[k])
	}

	// It survives a round trip through the session state.
	s := &session.State{}
	for i := 0; i < WorkaroundAfter; i++ {
		st.NoteDenial(k)
	}
	st.Save(s)
	if !LoadApproveState(s).Workaround(k, 2) {
		t.Error("the counts were not saved in the session state")
	}
}

func TestNoteDenialIsBounded(t *testing.T) {
	st := &ApproveState{}
	hot := "Bash: rm -f -r build"
	for i := 0; i < 3; i++ {
		st.NoteDenial(hot)
	}
	for i := 0; i < 3*maxDenialKeys; i++ {
		st.NoteDenial(fmt.Sprintf("Bash: cmd%c%d", 'a'+i%26, i))
	}
	if len(st.Denials) > maxDenialKeys {
		t.Errorf("%d keys kept, want at most %d", len(st.Denials), maxDenialKeys)
	}
	if st.Denials[hot] != 3 {
		t.Errorf("the repeated key was evicted: %v", st.Denials[hot])
	}
}

func TestLowRisk(t *testing.T) {
	globs := []string{"Read", "Grep", "mcp__*__read*", "mcp__*__list*", "[bad"}
	for tool, want := range map[string]bool{
		"Read": true, "Grep": true, "mcp__github__read_file": true, "mcp__fs__list_dir": true,
		"Bash": false, "Write": false, "mcp__github__create_issue": false, "mcp__read": false, "ReadX": false,
	} {
		if got := LowRisk(tool, globs); got != want {
			t.Errorf("LowRisk(%q) = %v, want %v", tool, got, want)
		}
	}
}

func TestFillDenial(t *testing.T) {
	tpl := "## The denial\n\n{{denial}}\n\n## The call\n\n{{input}}\n\n{{format}}"
	p := Fill(tpl, KindAppeal, map[string]string{"denial": DenialSlot, "input": "echo {{denial}}"})
	got := FillDenial(p, "deletes the build directory")
	if !strings.Contains(got, "## The denial\n\ndeletes the build directory") || !strings.Contains(got, "echo {{denial}}") {
		t.Errorf("filled appeal prompt:\n%s", got)
	}
	if !strings.Contains(got, "OVERTURN") || !strings.Contains(got, "UPHOLD: <") {
		t.Errorf("the appeal prompt does not teach its verdict words:\n%s", got)
	}
}
