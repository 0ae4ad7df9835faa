package notify

import (
	"context"
	"net/http"
	"strings"
	"time"
)

// Telegram sends notices through the Bot API's sendMessage. The answers
// (button taps) come back as callback_query updates on the daemon's
// Telegram webhook (/webhook/telegram), which already proves its sender
// with the secret token, drops redelivered updates and checks the chat
// against webhook.telegram_chats; so the daemon holds no long poll
// (getUpdates cannot run while a webhook is set anyway).
type Telegram struct {
	API, Token string
	Chats      []int64
}

// method is the URL of a Bot API method.
func (tg Telegram) method(name string) string {
	return strings.TrimRight(tg.API, "/") + "/bot" + tg.Token + "/" + name
}

// tgAnswer is the Bot API's envelope.
type tgAnswer struct {
	OK          bool   `json:"ok"`
	Description string `json:"description"`
	Result      struct {
		MessageID int64 `json:"message_id"`
	} `json:"result"`
}

// Keyboard is the notice's buttons: Approve, Deny, Always.
func Keyboard(task string) map[string]any {
	btn := func(text, act string) map[string]string {
		return map[string]string{"text": text, "callback_data": CallbackData(act, task)}
	}
	return map[string]any{"inline_keyboard": [][]map[string]string{{
		btn("Approve", ActApprove), btn("Deny", ActDeny), btn("Always", ActAlways),
	}}}
}

// sendMessage posts text (with the buttons when task is set) to chat.
func (tg Telegram) sendMessage(ctx context.Context, c *http.Client, chat int64, text, task string, timeout time.Duration) error {
	body := map[string]any{"chat_id": chat, "text": text, "link_preview_options": map[string]bool{"is_disabled": true}}
	if task != "" {
		body["reply_markup"] = Keyboard(task)
	}
	var ans tgAnswer
	if err := post(ctx, c, tg.method("sendMessage"), body, timeout, &ans); err != nil {
		return err
	}
	if !ans.OK {
		return permanent{errorString("sendMessage: " + ans.Description)}
	}
	return nil
}

type errorString string

func (e errorString) Error() string { return string(e) }
