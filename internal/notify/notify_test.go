package notify

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/testenv"
)

// botAPI is a stand-in for the Telegram Bot API: it records sendMessage
// calls per token and answers as Telegram does.
type botAPI struct {
	token string
	mu    sync.Mutex
	sent  []map[string]any
	fail  int // answer this many calls with 502 first
}

func (b *botAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/bot"+b.token+"/sendMessage" || r.Method != http.MethodPost {
		w.WriteHeader(http.StatusNotFound)
		json.NewEncoder(w).Encode(map[string]any{"ok": false, "error_code": 404, "description": "Not Found"})
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.fail > 0 {
		b.fail--
		w.WriteHeader(http.StatusBadGateway)
		return
	}
	var m map[string]any
	if err := json.NewDecoder(r.Body).Decode(&m); err != nil || m["chat_id"] == nil || m["text"] == nil {
		w.WriteHeader(http.StatusBadRequest)
		json.NewEncoder(w).Encode(map[string]any{"ok": false, "error_code": 400, "description": "Bad Request: message text is empty"})
		return
	}
	b.sent = append(b.sent, m)
	json.NewEncoder(w).Encode(map[string]any{"ok": true, "result": map[string]any{"message_id": len(b.sent), "chat": map[string]any{"id": m["chat_id"]}}})
}

func notice() Notice {
	return Notice{Event: EventWaiting, Task: "t-1", Title: Title("Add hello.txt and commit it.\nMore."), Tool: "Bash",
		Call: "git push origin main", Rule: "push-remote", Explanation: "pushes to a remote", Link: "http://127.0.0.1:8765/tasks/t-1",
		At: testenv.Now(), Answer: AnswerCommands("t-1")}
}

// A waiting agent's notice reaches every webhook (JSON with the task, the
// call, the policy's reason and the link; one that failed once is
// retried) and every allowed Telegram chat with the three buttons.
func TestDeliverWebhookAndTelegram(t *testing.T) {
	var mu sync.Mutex
	var got []Notice
	tries := 0
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		tries++
		if tries == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		var n Notice
		if err := json.NewDecoder(r.Body).Decode(&n); err != nil || r.Header.Get("Content-Type") != "application/json" {
			t.Errorf("webhook body: %v (%s)", err, r.Header.Get("Content-Type"))
		}
		got = append(got, n)
	}))
	defer hook.Close()
	bot := &botAPI{token: "123:secret-token", fail: 1}
	api := httptest.NewServer(bot)
	defer api.Close()

	n := New(func() Settings {
		return Settings{WebhookURLs: []string{hook.URL + "/warden"}, Timeout: 5 * time.Second, Retries: 2,
			Telegram: Telegram{API: api.URL, Token: bot.token, Chats: []int64{42, -100}}}
	}, nil)
	n.Backoff = time.Millisecond
	if err := n.Deliver(context.Background(), notice()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	bot.mu.Lock()
	defer bot.mu.Unlock()
	if tries != 2 || len(got) != 1 {
		t.Fatalf("webhook tries %d, notices %d; want 2 and 1", tries, len(got))
	}
	w := got[0]
	if w.Task != "t-1" || w.Title != "Add hello.txt and commit it." || w.Call != "git push origin main" ||
		w.Rule != "push-remote" || w.Explanation != "pushes to a remote" || !strings.HasSuffix(w.Link, "/tasks/t-1") || w.Event != "task.waiting" {
		t.Errorf("webhook notice %+v", w)
	}
	if len(bot.sent) != 2 {
		t.Fatalf("telegram messages %d, want one per chat", len(bot.sent))
	}
	chats := map[float64]bool{}
	for _, m := range bot.sent {
		chats[m["chat_id"].(float64)] = true
		text := m["text"].(string)
		if !strings.Contains(text, "t-1") || !strings.Contains(text, "git push origin main") || !strings.Contains(text, "push-remote") {
			t.Errorf("message text %q", text)
		}
		kb, _ := json.Marshal(m["reply_markup"])
		for _, want := range []string{`"Approve"`, `"Deny"`, `"Always"`, `"warden:approve:t-1"`, `"warden:deny:t-1"`, `"warden:always:t-1"`} {
			if !strings.Contains(string(kb), want) {
				t.Errorf("keyboard %s lacks %s", kb, want)
			}
		}
	}
	if !chats[42] || !chats[-100] {
		t.Errorf("chats %v", chats)
	}
}

// A receiver that refuses (4xx) is not retried; one that never answers
// costs one timeout per try, and retries are bounded; the error names the
// failing target without its URL or the bot token.
func TestDeliverBounded(t *testing.T) {
	var mu sync.Mutex
	calls := map[string]int{}
	hang := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		calls[r.URL.Path]++
		mu.Unlock()
		switch r.URL.Path {
		case "/gone":
			w.WriteHeader(http.StatusGone)
		case "/hang":
			select {
			case <-hang:
			case <-r.Context().Done():
			}
		default:
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"ok":false,"error_code":401,"description":"Unauthorized"}`))
		}
	}))
	defer srv.Close()
	defer close(hang) // before Close, which waits for the handlers
	n := New(func() Settings {
		return Settings{WebhookURLs: []string{srv.URL + "/gone", srv.URL + "/hang?key=s3cret"}, Timeout: 100 * time.Millisecond, Retries: 2,
			Telegram: Telegram{API: srv.URL, Token: "999:bad-token", Chats: []int64{7}}}
	}, nil)
	n.Backoff = time.Millisecond
	err := n.Deliver(context.Background(), notice())
	if err == nil {
		t.Fatal("no error")
	}
	mu.Lock()
	if calls["/gone"] != 1 || calls["/hang"] != 3 || calls["/bot999:bad-token/sendMessage"] != 1 {
		t.Errorf("calls %v; want 1 (4xx), 3 (1 + 2 retries), 1 (401)", calls)
	}
	mu.Unlock()
	msg := err.Error()
	for _, want := range []string{"notify.webhook_urls[0]: HTTP 410", "notify.webhook_urls[1]", "telegram chat 7"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
	if strings.Contains(msg, "s3cret") || strings.Contains(msg, "bad-token") {
		t.Errorf("error leaks a secret: %q", msg)
	}
}

// Notify never waits: a full queue drops the notice and says so.
func TestNotifyNeverBlocks(t *testing.T) {
	n := New(func() Settings { return Settings{} }, nil) // no Run: nothing drains
	for i := 0; i < queueSize; i++ {
		if !n.Notify(notice()) {
			t.Fatalf("notice %d dropped before the queue was full", i)
		}
	}
	if n.Notify(notice()) {
		t.Fatal("a notice was queued past the bound")
	}
}

func TestParseCallback(t *testing.T) {
	for _, act := range []string{ActApprove, ActDeny, ActAlways} {
		a, id, ok := ParseCallback(CallbackData(act, "t-9"))
		if !ok || a != act || id != "t-9" {
			t.Errorf("%s: %q %q %v", act, a, id, ok)
		}
	}
	for _, bad := range []string{"", "approve:t", "warden:merge:t", "warden:approve:", "warden:approve"} {
		if _, _, ok := ParseCallback(bad); ok {
			t.Errorf("%q parsed", bad)
		}
	}
	if len(CallbackData(ActAlways, strings.Repeat("x", 40))) > 64 {
		t.Error("callback data over Telegram's 64 bytes for a 40-character task id")
	}
}
