package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/notify"
	"github.com/warden-dev/warden/internal/server"
)

// tgBotAPI speaks the Bot API method warden calls (sendMessage) and keeps
// the messages, buttons included.
type tgBotAPI struct {
	mu   sync.Mutex
	sent []tgSent
}

type tgSent struct {
	ChatID      int64  `json:"chat_id"`
	Text        string `json:"text"`
	ReplyMarkup struct {
		Keyboard [][]struct {
			Text         string `json:"text"`
			CallbackData string `json:"callback_data"`
		} `json:"inline_keyboard"`
	} `json:"reply_markup"`
}

func (b *tgBotAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/bot77:tok/sendMessage" {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	var m tgSent
	if err := json.NewDecoder(r.Body).Decode(&m); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	b.sent = append(b.sent, m)
	fmt.Fprintf(w, `{"ok":true,"result":{"message_id":%d}}`, len(b.sent))
}

// A waiting agent's Telegram notice goes out with three buttons; a tap in
// an allowed chat comes back as a callback_query on /webhook/telegram and
// approves, denies or approves always through the agents' answerer (the
// path of `warden task approve|deny`), answered with answerCallbackQuery;
// a redelivered tap answers nothing twice; a tap from any other chat is
// refused and answers nothing.
func TestTelegramButtonsAnswerAWaitingAgent(t *testing.T) {
	bot := &tgBotAPI{}
	api := httptest.NewServer(bot)
	defer api.Close()
	n := notify.New(func() notify.Settings {
		return notify.Settings{Timeout: 5 * time.Second, Telegram: notify.Telegram{API: api.URL, Token: "77:tok", Chats: []int64{42}}}
	}, nil)
	if err := n.Deliver(context.Background(), notify.Notice{Task: "twaiting", Title: "read the config", Tool: "Bash", Call: "cat .env"}); err != nil {
		t.Fatal(err)
	}
	bot.mu.Lock()
	defer bot.mu.Unlock()
	if len(bot.sent) != 1 || bot.sent[0].ChatID != 42 || len(bot.sent[0].ReplyMarkup.Keyboard) != 1 {
		t.Fatalf("sent %+v", bot.sent)
	}
	buttons := map[string]string{}
	for _, b := range bot.sent[0].ReplyMarkup.Keyboard[0] {
		buttons[b.Text] = b.CallbackData
	}

	ag := &answeringAgents{}
	r := newAPIRig(t, 10, server.Webhooks{TelegramSecret: tgSecret, TelegramChats: []int64{42}}, func(o *server.Options) { o.Agents = ag })
	hdr := map[string]string{"X-Telegram-Bot-Api-Secret-Token": tgSecret}
	tap := func(update, chat int64, data string) (int, string) {
		body := fmt.Sprintf(`{"update_id":%d,"callback_query":{"id":"cq%d","from":{"id":%d,"username":"pat"},"message":{"message_id":1,"chat":{"id":%d}},"data":%q}}`,
			update, update, chat, chat, data)
		status, got, _ := r.do("POST", "/webhook/telegram", body, "", hdr)
		return status, string(got)
	}
	for i, b := range []string{"Approve", "Deny", "Always"} {
		status, got := tap(int64(100+i), 42, buttons[b])
		if status != 200 || !strings.Contains(got, `"method":"answerCallbackQuery"`) || !strings.Contains(got, fmt.Sprintf(`"callback_query_id":"cq%d"`, 100+i)) || !strings.Contains(got, "cat .env") {
			t.Errorf("%s: %d %s", b, status, got)
		}
	}
	if status, got := tap(100, 42, buttons["Approve"]); status != 200 || !strings.Contains(got, `"duplicate":true`) {
		t.Errorf("redelivered tap: %d %s", status, got)
	}
	if status, got := tap(200, 7, buttons["Approve"]); status != 200 || !strings.Contains(got, "refused") || !strings.Contains(got, "webhook.telegram_chats") {
		t.Errorf("other chat: %d %s", status, got)
	}
	if status, got := tap(201, 42, notify.CallbackData(notify.ActApprove, "tbusy")); !strings.Contains(got, "not answered") || !strings.Contains(got, "not waiting") {
		t.Errorf("busy task: %d %s", status, got)
	}
	if got := strings.Join(ag.got, ","); got != "approve:,deny:,approve-always:" {
		t.Errorf("answers %q; want approve, deny, approve always once each and nothing from chat 7", got)
	}
}
