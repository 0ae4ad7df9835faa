package server

import (
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/task"
	"github.com/warden-dev/warden/internal/tasksvc"
)

// Telegram (setWebhook with secret_token): /status, /pace, /task add …
// and /help from a chat, answered in the webhook's response (a sendMessage
// method call), so the daemon needs no outbound connection. The secret
// header is compared in constant time; an update seen before (update_id)
// is answered with nothing.

type tgUpdate struct {
	UpdateID int64 `json:"update_id"`
	Message  *struct {
		Text string `json:"text"`
		Date int64  `json:"date"` // Unix seconds
		Chat struct {
			ID int64 `json:"id"`
		} `json:"chat"`
	} `json:"message"`
	CallbackQuery *tgCallback `json:"callback_query"` // a button of a notice (webhook_telegram_answer.go)
}

const telegramHelp = "warden commands: /status — the daemon and its queue; /pace — the quota windows; /task add PROMPT — queue a task"

func (s *Server) webhookTelegram(w http.ResponseWriter, r *http.Request) {
	wh := s.webhooks()
	if wh.TelegramSecret == "" {
		notConfigured(w, "webhook.telegram_secret")
		return
	}
	got := r.Header.Get("X-Telegram-Bot-Api-Secret-Token")
	if subtle.ConstantTimeCompare([]byte(got), []byte(wh.TelegramSecret)) != 1 {
		writeError(w, http.StatusUnauthorized, "bad_secret", "X-Telegram-Bot-Api-Secret-Token is missing or wrong; set it with setWebhook's secret_token")
		return
	}
	body, ok := readRaw(w, r, telegramBodyLimit)
	if !ok {
		return
	}
	var u tgUpdate
	if err := json.Unmarshal(body, &u); err != nil {
		writeError(w, http.StatusBadRequest, "bad_request", jsonErrorText(err, telegramBodyLimit))
		return
	}
	if u.UpdateID == 0 {
		writeError(w, http.StatusBadRequest, "bad_request", "update_id missing; this endpoint takes Telegram Update objects")
		return
	}
	if u.CallbackQuery != nil {
		s.telegramCallback(w, r, u.UpdateID, u.CallbackQuery)
		return
	}
	if u.Message == nil || u.Message.Text == "" {
		s.ignored(w, "telegram", "not a text message")
		return
	}
	chat := u.Message.Chat.ID
	if !s.telegramAllowed(w, chat) {
		return
	}
	if u.Message.Date > 0 && s.tooOld(w, "telegram", time.Unix(u.Message.Date, 0)) { // webhook_dedupe.go
		return
	}
	delivery := strconv.FormatInt(u.UpdateID, 10)
	if s.o.Deliveries != nil {
		s.pruneDeliveries(r.Context(), s.o.Now())
		first, err := s.o.Deliveries.ClaimDelivery(r.Context(), "telegram", delivery, s.o.Now())
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
	s.metrics.webhooks.WithLabelValues("telegram", "command").Inc()
	writeJSON(w, http.StatusOK, map[string]any{"method": "sendMessage", "chat_id": chat, "text": s.telegramAnswer(r, u, delivery)})
}

// telegramAnswer runs one command and says what happened.
func (s *Server) telegramAnswer(r *http.Request, u tgUpdate, delivery string) string {
	text := strings.TrimSpace(u.Message.Text)
	cmd, rest, _ := strings.Cut(text, " ")
	cmd, _, _ = strings.Cut(cmd, "@") // /status@my_bot in groups
	switch cmd {
	case "/status":
		st := s.o.Scheduler.Status()
		counts, err := s.o.Tasks.CountTasks(r.Context())
		if err != nil {
			return "store error: " + err.Error()
		}
		msg := fmt.Sprintf("warden on %s: %d of %d agents running; tasks: %d queued, %d running, %d paused, %d done, %d failed",
			s.o.System, st.Running, st.MaxAgents, counts[task.Queued], counts[task.Running], counts[task.Paused], counts[task.Done], counts[task.Failed])
		if st.Held != nil {
			msg += "\nHOLDING new work until " + st.Held.Until.UTC().Format("2006-01-02 15:04 MST") + ": " + st.Held.Reason
		}
		return msg
	case "/pace":
		if s.o.Pace == nil {
			return "pacing is not wired into this daemon"
		}
		rec, err := s.o.Pace(r.Context(), s.o.Now())
		if err != nil {
			return "pacing error: " + err.Error()
		}
		if rec == nil || rec.Note != "" {
			if rec != nil {
				return rec.Note
			}
			return "no pacing figures"
		}
		d := rec.Decision
		return fmt.Sprintf("5-hour %.1f%% (allowance %.1f%%), 7-day %.1f%% (allowance %.1f%%); delay %d s per tool call",
			d.FiveHour.Utilization, d.FiveHour.Target, d.SevenDay.Utilization, d.SevenDay.Target, rec.DelaySeconds)
	case "/task":
		sub, prompt, _ := strings.Cut(strings.TrimSpace(rest), " ")
		if sub != "add" || strings.TrimSpace(prompt) == "" {
			return "usage: /task add PROMPT"
		}
		if s.webhooks().TelegramProject == "" {
			return "set webhook.telegram_project to the directory tasks from Telegram run in"
		}
		t, _, err := s.tasks.Add(r.Context(), tasksvc.Request{Project: s.webhooks().TelegramProject, Prompt: strings.TrimSpace(prompt),
			Source: "telegram", IdempotencyKey: "telegram:" + delivery})
		if err != nil {
			return "not queued: " + err.Error()
		}
		return fmt.Sprintf("queued %s (%s)", t.ID, t.Status)
	}
	return telegramHelp
}
