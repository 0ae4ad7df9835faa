//go:build unix

package hookserve

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSocketStdio: a caller whose stdio are socket pairs (a Node parent's,
// Claude Code's) is served as one with pipes is: the payload read, the
// answer on its stdout and exit code, what went wrong on its stderr, the
// event recorded — for a payload there before the request, for one that
// comes after it (its reads then wait on the poller), and for a status
// line.
func TestSocketStdio(t *testing.T) {
	r := newRig(t, Options{})
	rm := `{"session_id":"sock","cwd":"` + r.home + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"t-rm","tool_input":{"command":"rm -rf /"}}`
	for _, sockets := range []bool{false, true} {
		pipes := r.do(t, call{args: hookArgs(), stdin: rm, sockets: false})
		res := r.do(t, call{args: hookArgs(), stdin: rm, sockets: sockets})
		if res.err != nil || res.declined || res.code != pipes.code || res.stdout != pipes.stdout || res.stderr != pipes.stderr || !strings.Contains(res.stdout, "deny") {
			t.Fatalf("a denied call (sockets %v): %+v, with pipes %+v", sockets, res, pipes)
		}
	}
	res := r.do(t, call{args: hookArgs(), stdin: preToolUse("sock", r.home, "ls"), sockets: true})
	if res.err != nil || res.declined || res.code != 0 || res.stderr != "" {
		t.Fatalf("an allowed call over sockets: %+v", res)
	}
	payload := preToolUse("sock", r.home, "pwd")
	for _, sockets := range []bool{true, false} {
		res = r.do(t, call{args: hookArgs(), stdin: payload[:10], stdinLate: payload[10:], sockets: sockets})
		if res.err != nil || res.declined || res.code != 0 || res.stderr != "" {
			t.Fatalf("a payload that comes after the request (sockets %v): %+v", sockets, res)
		}
	}
	evs := r.events(t)
	if len(evs) != 7 {
		t.Fatalf("%d events recorded, want 7: %+v", len(evs), evs)
	}
	for _, ev := range evs[len(evs)-2:] {
		if ev.Error != "" || ev.Tool != "Bash" || !strings.Contains(string(ev.Raw)+ev.Detail, "pwd") {
			t.Errorf("the late payload's record: %+v", ev)
		}
	}
	res = r.do(t, call{args: []string{"statusline"}, stdin: `{"model":{"display_name":"Opus"}}`, sockets: true, environ: r.environ("NO_COLOR=1")})
	if res.err != nil || res.declined || !strings.Contains(res.stdout, "Opus") {
		t.Fatalf("a status line over sockets: %+v", res)
	}
}

// TestSocketStdinStuck: a socket stdin that is never closed ends the hook
// at hook.read_timeout_ms, as a pipe does.
func TestSocketStdinStuck(t *testing.T) {
	r := newRig(t, Options{})
	os.WriteFile(filepath.Join(r.home, "config.toml"), []byte("[hook]\nread_timeout_ms = 300\n"), 0o600)
	res := r.do(t, call{args: append(hookArgs(), "PreToolUse"), stdin: `{"session_id":"stuck",`, stdinOpen: true, sockets: true})
	if res.stdinW != nil {
		defer res.stdinW.Close()
	}
	if res.err != nil || res.declined || res.code != 0 || !strings.Contains(res.stderr, "stdin not closed within 300ms") {
		t.Fatalf("stuck client over sockets: %+v", res)
	}
}
