package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/notify"
	"github.com/warden-dev/warden/internal/testenv"
)

// inbox keeps what warden sent out: webhook notices and the Bot API's
// sendMessage calls.
type inbox struct {
	mu       sync.Mutex
	notices  []notify.Notice
	messages []map[string]any
}

func (in *inbox) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	in.mu.Lock()
	defer in.mu.Unlock()
	switch r.URL.Path {
	case "/hook":
		var n notify.Notice
		json.Unmarshal(b, &n)
		in.notices = append(in.notices, n)
	case "/bot77:tok/sendMessage":
		var m map[string]any
		json.Unmarshal(b, &m)
		in.messages = append(in.messages, m)
		fmt.Fprintf(w, `{"ok":true,"result":{"message_id":%d}}`, len(in.messages))
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}

func (in *inbox) counts() (int, int) {
	in.mu.Lock()
	defer in.mu.Unlock()
	return len(in.notices), len(in.messages)
}

// When a task's agent starts waiting on a call the policy asks about,
// warden serve POSTs a notice to the configured webhook and sends a
// Telegram message with Approve / Deny / Always to the allowed chat. A
// tap from another chat is refused; Approve from the allowed chat
// answers Claude Code's dialog (the path of `warden task approve`), and
// the task finishes with the call's commit on its branch.
func TestWaitingAgentNoticesAndTelegramApproval(t *testing.T) {
	in := &inbox{}
	out := httptest.NewServer(in)
	defer out.Close()
	w := defaultWorld(t, Script{Steps: []Step{
		{Tools: []ToolUse{{Name: "Bash", Input: map[string]any{"command": askCommit}}}},
		{Text: "Committed hello.txt."},
	}, DoneText: "Done."})
	d := startDaemonMode(t, w, "", fmt.Sprintf(`
[notify]
webhook_urls = [%q]
telegram_token = "77:tok"
telegram_api = %q

[webhook]
telegram_secret = "tg-secret"
telegram_chats = ["42"]
`, out.URL+"/hook", out.URL))
	id := addTask(t, d, "Read .env, then add hello.txt and commit it.")
	untilWaiting(t, d, id)
	seen := time.Now()
	testenv.WaitFor(t, 30*time.Second, "the notices", func() bool { n, m := in.counts(); return n == 1 && m == 1 })
	t.Logf("notices in %v after the task showed waiting", time.Since(seen).Round(10*time.Millisecond))

	n := in.notices[0]
	if n.Event != "task.waiting" || n.Task != id || n.Title != "Read .env, then add hello.txt and commit it." || n.Tool != "Bash" ||
		!strings.Contains(n.Call, "cat .env") || !strings.HasPrefix(n.Rule, "core.secrets") || n.Explanation == "" ||
		!strings.HasSuffix(n.Link, "/tasks/"+id) {
		t.Errorf("webhook notice %+v", n)
	}
	msg := in.messages[0]
	kb, _ := json.Marshal(msg["reply_markup"])
	if msg["chat_id"] != float64(42) || !strings.Contains(msg["text"].(string), "cat .env") || !strings.Contains(string(kb), notify.CallbackData(notify.ActApprove, id)) {
		t.Errorf("telegram message %v", msg)
	}

	var st struct{ URL string }
	b, _ := os.ReadFile(filepath.Join(w.WardenHome, "run", "serve.json"))
	json.Unmarshal(b, &st)
	update := 1000
	tap := func(chat int, data string) string {
		update++
		body := fmt.Sprintf(`{"update_id":%d,"callback_query":{"id":"cq%d","from":{"id":%d},"message":{"message_id":1,"chat":{"id":%d}},"data":%q}}`, update, update, chat, chat, data)
		req, _ := http.NewRequest("POST", st.URL+"/webhook/telegram", strings.NewReader(body))
		req.Header.Set("X-Telegram-Bot-Api-Secret-Token", "tg-secret")
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		got, _ := io.ReadAll(resp.Body)
		return string(got)
	}
	if got := tap(7, notify.CallbackData(notify.ActApprove, id)); !strings.Contains(got, "refused") {
		t.Errorf("a tap from chat 7: %s", got)
	}
	if tj := d.waitTask(t, id, func(string) bool { return true }, time.Minute); tj.Task.AgentState != "waiting" {
		t.Fatalf("the agent moved on after a refused tap: %s", tj.Task.AgentState)
	}
	var got string
	testenv.WaitFor(t, 30*time.Second, "Approve from Telegram to find the dialog", func() bool {
		got = tap(42, notify.CallbackData(notify.ActApprove, id))
		return strings.Contains(got, id+" approved")
	})
	if !strings.Contains(got, `"method":"answerCallbackQuery"`) || !strings.Contains(got, "cat .env") {
		t.Errorf("the answer to the tap: %s", got)
	}
	tj := d.waitTask(t, id, finalStatus, 120*time.Second)
	if tj.Task.Status != "done" {
		t.Fatalf("task %s after the Telegram approval: %s\n%s", tj.Task.Status, tj.Task.Error, d.warden(t, "task", "show", id))
	}
	if msg := strings.TrimSpace(testenv.Git(t, w.Project, "log", "-1", "--format=%s", "warden/"+id)); msg != "hello" {
		t.Errorf("branch tip %q, want the approved call's commit", msg)
	}
}
