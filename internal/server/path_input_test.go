package server_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/server"
)

// TestProjectPathRefusesControlCharacters: a project is a directory an
// agent runs in; a NUL (which the OS cuts the path at) or another control
// character in it is refused with 400 naming the field, and nothing is
// stored.
func TestProjectPathRefusesControlCharacters(t *testing.T) {
	r := newAPIRig(t, 100, server.Webhooks{})
	for _, bad := range []string{r.project + "\x00/../etc", r.project + "\n", r.project + "/\x1b[2Jx", "\t" + r.project, r.project + "\x7f"} {
		body, _ := json.Marshal(map[string]any{"project": bad, "prompt": "p"})
		status, got, _ := r.do("POST", "/api/tasks", string(body), r.token, nil)
		if status != 400 || !strings.Contains(string(got), "project") {
			t.Errorf("project %q: %d %s; want 400 naming project", bad, status, got)
		}
	}
	if n := r.taskCount(); n != 0 {
		t.Errorf("%d tasks stored", n)
	}
}
