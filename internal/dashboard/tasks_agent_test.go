package dashboard_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/server"
	"github.com/warden-dev/warden/internal/task"
)

// getPage fetches a page as the logged-in user (the login cookie holds
// the token) and returns its HTML.
func getPage(t *testing.T, e *env, path string) string {
	t.Helper()
	req, _ := http.NewRequest("GET", e.url(path), nil)
	req.AddCookie(&http.Cookie{Name: server.CookieName, Value: testToken})
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		t.Fatalf("GET %s: %d\n%s", path, res.StatusCode, b)
	}
	return string(b)
}

// The board and the task page say why an agent is where it is: a
// waiting agent's note (here a notification type warden does not know),
// a failed task's error with its next step and the pane's last lines.
func TestTasksShowAgentNoteAndFailure(t *testing.T) {
	e := newEnv(t)
	seed(t, e, time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC))
	ctx := context.Background()
	waiting, note := "waiting", "Notification brand_new_kind: a type warden does not know, state kept"
	if _, err := e.st.UpdateTask(ctx, e.taskIDs["running"], task.Change{AgentState: &waiting, AgentNote: &note, Time: time.Date(2026, 11, 28, 12, 5, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	errState, tail := "error", "Welcome to Claude Code\nAPI Error: Unable to connect to Anthropic services"
	msg := "agent error: the agent process exited with status 1; last error: API Error: Unable to connect to Anthropic services. Next: check ANTHROPIC_BASE_URL"
	if _, err := e.st.UpdateTask(ctx, e.taskIDs["failed"], task.Change{AgentState: &errState, AgentNote: &tail, Error: &msg, Time: time.Date(2026, 11, 28, 12, 5, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	board := getPage(t, e, "/tasks")
	for _, want := range []string{"brand_new_kind: a type warden does not know", "Unable to connect to Anthropic services. Next: check ANTHROPIC_BASE_URL", `class="state s-waiting"`} {
		if !strings.Contains(board, want) {
			t.Errorf("board lacks %q", want)
		}
	}
	page := getPage(t, e, "/tasks/"+e.taskIDs["failed"])
	for _, want := range []string{"Last lines", "Welcome to Claude Code\nAPI Error: Unable to connect", "Next: check ANTHROPIC_BASE_URL"} {
		if !strings.Contains(page, want) {
			t.Errorf("task page lacks %q", want)
		}
	}
	if page := getPage(t, e, "/tasks/"+e.taskIDs["running"]); !strings.Contains(page, "brand_new_kind") {
		t.Errorf("running task's page lacks its note")
	}
}
