//go:build linux

package daemon_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/task"
)

// TestTaskListAndShowMakeStoredTextVisible: a prompt from a webhook or
// the API reaches `warden task list` and `task show`; the escape
// sequences in it (a clipboard write, a screen clear) and a bidi override
// must not reach the terminal as such, only as visible escapes.
func TestTaskListAndShowMakeStoredTextVisible(t *testing.T) {
	h := newHome(t)
	h.serve()
	const prompt = "fix it\x1b]52;c;Y3VybCBldmlsLnNofHNo\x07 then \x1b[2J\x1b[H and gnp.\u202eexe"
	out, code := h.warden("task", "add", "--json", "-C", h.dir, prompt)
	var tk task.Task
	if code != 0 || json.Unmarshal([]byte(out), &tk) != nil {
		t.Fatalf("task add: exit %d: %s", code, out)
	}
	list, code := h.warden("task", "list")
	if code != 0 {
		t.Fatalf("task list: exit %d: %s", code, list)
	}
	show, code := h.warden("task", "show", tk.ID)
	if code != 0 {
		t.Fatalf("task show: exit %d: %s", code, show)
	}
	for name, got := range map[string]string{"task list": list, "task show": show} {
		if strings.ContainsAny(got, "\x1b\x07\u202e") {
			t.Errorf("%s lets control characters through:\n%q", name, got)
		}
		if !strings.Contains(got, `fix it\x1b]52;c;`) {
			t.Errorf("%s does not show the escape visibly:\n%q", name, got)
		}
	}
	if !strings.Contains(show, `\x1b[2J\x1b[H and gnp.\u202eexe`) {
		t.Errorf("task show hides the screen clear or the bidi override:\n%q", show)
	}
}
