package server

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"

	"github.com/warden-dev/warden/internal/notify"
)

// A waiting agent's Telegram notice carries Approve / Deny / Always
// buttons (internal/notify). A tap comes back here as a callback_query
// update on the same webhook as the chat commands, so it has passed the
// secret-token check; the chat must be in webhook.telegram_chats (any
// other is refused and logged), a redelivered update is answered once,
// and the answer goes through the same PendingAnswerer as `warden task
// approve|deny` and POST /api/tasks/{id}/approve|deny. The reply is an
// answerCallbackQuery method call in the webhook's response: Telegram
// shows its text on the phone that tapped, and the daemon needs no
// outbound call to say it.

type tgCallback struct {
	ID   string `json:"id"`
	Data string `json:"data"`
	From struct {
		ID       int64  `json:"id"`
		Username string `json:"username"`
	} `json:"from"`
	Message *struct {
		MessageID int64 `json:"message_id"`
		Chat      struct {
			ID int64 `json:"id"`
		} `json:"chat"`
	} `json:"message"`
}

func (s *Server) telegramCallback(w http.ResponseWriter, r *http.Request, updateID int64, cq *tgCallback) {
	reply := func(text string) {
		writeJSON(w, http.StatusOK, map[string]any{"method": "answerCallbackQuery", "callback_query_id": cq.ID, "text": clipRunes(text, 190), "show_alert": true})
	}
	chat := cq.From.ID
	if cq.Message != nil {
		chat = cq.Message.Chat.ID
	}
	if !slices.Contains(s.webhooks().TelegramChats, chat) {
		s.o.Log.Warn("telegram: a button tapped in a chat not in webhook.telegram_chats: refused", "chat", chat, "from", cq.From.ID, "data", cq.Data)
		s.metrics.webhooks.WithLabelValues("telegram", "refused").Inc()
		reply("refused: this chat is not in warden's webhook.telegram_chats")
		return
	}
	action, id, ok := notify.ParseCallback(cq.Data)
	if !ok {
		s.metrics.webhooks.WithLabelValues("telegram", "ignored").Inc()
		reply("not a warden button")
		return
	}
	if s.o.Deliveries != nil {
		first, err := s.o.Deliveries.ClaimDelivery(r.Context(), "telegram", strconv.FormatInt(updateID, 10), s.o.Now())
		if err != nil {
			writeError(w, http.StatusInternalServerError, "internal", err.Error())
			return
		}
		if !first {
			s.metrics.webhooks.WithLabelValues("telegram", "duplicate").Inc()
			writeJSON(w, http.StatusOK, map[string]any{"duplicate": true})
			return
		}
	}
	s.metrics.webhooks.WithLabelValues("telegram", "answer").Inc()
	call, err := s.telegramAnswerCall(r.Context(), action, id)
	var ref *Refusal
	switch {
	case errors.As(err, &ref):
		reply("not answered: " + ref.Msg)
	case err != nil:
		s.o.Log.Error("telegram: answer a pending call", "task", id, "action", action, "err", err)
		reply("not answered: " + err.Error())
	default:
		s.o.Log.Info("telegram: pending call answered", "task", id, "action", action, "chat", chat, "from", cq.From.ID, "call", call)
		reply(id + " " + pastTense(action) + ": " + call)
	}
}

func (s *Server) telegramAnswerCall(ctx context.Context, action, id string) (string, error) {
	ans, ok := s.o.Agents.(PendingAnswerer)
	if !ok {
		return "", &Refusal{Msg: "this daemon runs no tmux agents, so there is no pending call to answer"}
	}
	approve, always := action != notify.ActDeny, action == notify.ActAlways
	return ans.Answer(ctx, id, approve, always, "")
}

func pastTense(action string) string {
	switch action {
	case notify.ActApprove:
		return "approved"
	case notify.ActDeny:
		return "denied"
	}
	return "approved for the rest of the task"
}

// clipRunes keeps an answerCallbackQuery text within Telegram's 200
// characters.
func clipRunes(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
