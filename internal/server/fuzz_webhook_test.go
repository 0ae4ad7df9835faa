package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/warden-dev/warden/internal/server"
)

// FuzzWebhookBody sends made-up bodies to the three webhooks (GitHub,
// Alertmanager, Telegram), each either authenticated as the sender would
// be (GitHub's signature over the body, Telegram's secret header,
// Alertmanager's bearer token) or not. Whatever comes in: no 5xx, a
// refusal is a JSON error, an unauthenticated body is refused with 401 and
// queues nothing, a body that is not JSON is refused with 400 (GitHub's
// ping excepted: it is answered before the body is read as an event), and
// no refusal leaves a task behind.
func FuzzWebhookBody(f *testing.F) {
	r := newAPIRig(f, fuzzQueue, server.Webhooks{GitHubSecret: ghSecret, AlertProject: "x",
		TelegramSecret: tgSecret, TelegramProject: "x", TelegramChats: []int64{42}})
	issue := `{"action":"labeled","label":{"name":"warden"},"issue":{"number":7,"title":"Crash on start","body":"stack","html_url":"https://github.com/acme/app/issues/7","labels":[{"name":"warden"}]},"repository":{"full_name":"acme/app"}}`
	opened := `{"action":"opened","issue":{"number":8,"title":"t","body":"b","html_url":"u","author_association":"NONE","labels":[{"name":"warden"}]},"repository":{"full_name":"acme/app"}}`
	comment := `{"action":"created","comment":{"body":"/warden run add a regression test","user":{"login":"ann"},"author_association":"MEMBER","created_at":"2026-11-28T10:00:00Z"},"issue":{"number":7,"title":"Crash","body":"","html_url":"u"},"repository":{"full_name":"acme/app"}}`
	alert := `{"version":"4","status":"firing","alerts":[{"status":"firing","labels":{"alertname":"DiskFull","host":"db1"},"annotations":{"summary":"/var at 97%"},"startsAt":"2026-11-26T01:00:00Z","fingerprint":"abc"},{"status":"resolved","labels":{"alertname":"Old"},"startsAt":"2026-11-25T01:00:00Z","fingerprint":"def"}]}`
	alertBad := `{"version":"4","alerts":[{"status":"firing","labels":{"a":"b"},"startsAt":"2026-11-26T01:00:00Z","fingerprint":"f1"},{"status":"firing","labels":{"a":"c"}}]}`
	tg := func(id, chat int, text string) string {
		return fmt.Sprintf(`{"update_id":%d,"message":{"message_id":1,"date":0,"chat":{"id":%d},"text":%q}}`, id, chat, text)
	}
	cb := `{"update_id":9,"callback_query":{"id":"q","data":"approve:tseed","from":{"id":1},"message":{"chat":{"id":42}}}}`
	for _, s := range []struct {
		kind   byte
		signed bool
		event  string
		body   string
	}{
		{0, true, "issues", issue}, {0, false, "issues", issue}, {0, true, "issues", opened},
		{0, true, "issue_comment", comment}, {0, true, "ping", `{"zen":"x"}`}, {0, true, "ping", `not json`},
		{0, true, "issues", `{"issue":{"number":"7"}}`}, {0, true, "issues", `[]`}, {0, true, "issues", ``},
		{1, true, "", alert}, {1, false, "", alert}, {1, true, "", alertBad}, {1, true, "", `{"version":"3"}`},
		{1, true, "", `{"version":"4","alerts":[{"status":"firing","labels":{"x":"{{"},"startsAt":"2026-11-26T01:00:00Z","fingerprint":"t"}]}`},
		{2, true, "", tg(1, 42, "/task add fix it")}, {2, false, "", tg(2, 42, "/task add fix it")},
		{2, true, "", tg(3, 7, "/task add from a stranger")}, {2, true, "", tg(4, 42, "/status")},
		{2, true, "", tg(5, 42, "/pace")}, {2, true, "", tg(0, 42, "/help")}, {2, true, "", cb},
		{2, true, "", `{"update_id":1e30}`},
	} {
		f.Add(s.kind, s.signed, s.event, []byte(s.body))
	}
	var delivery atomic.Int64
	f.Fuzz(func(t *testing.T, kind byte, signed bool, event string, body []byte) {
		var req *http.Request
		switch kind % 3 {
		case 0:
			req, _ = rawRequest("POST", "/webhook/github")
			req.Header.Set("X-GitHub-Event", event)
			req.Header.Set("X-GitHub-Delivery", "fuzz-"+strconv.FormatInt(delivery.Add(1), 10))
			if signed {
				req.Header.Set("X-Hub-Signature-256", ghSign(string(body)))
			} else {
				req.Header.Set("X-Hub-Signature-256", ghSign(string(body)+"x"))
			}
		case 1:
			req, _ = rawRequest("POST", "/webhook/alertmanager")
			if signed {
				req.Header.Set("Authorization", "Bearer "+r.token)
			} else {
				req.Header.Set("Authorization", "Bearer "+r.revoked)
			}
		case 2:
			req, _ = rawRequest("POST", "/webhook/telegram")
			if signed {
				req.Header.Set("X-Telegram-Bot-Api-Secret-Token", tgSecret)
			} else {
				req.Header.Set("X-Telegram-Bot-Api-Secret-Token", tgSecret+"x")
			}
		}
		req.Header.Set("Content-Type", "application/json")
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.ContentLength = int64(len(body))
		before := tasksIn(t, r.st)
		rec := serve(t, r.srv, req)
		added := tasksIn(t, r.st) - before
		switch {
		case !signed && rec.Code != http.StatusUnauthorized:
			t.Fatalf("%s unauthenticated: %d %s; want 401", req.URL.Path, rec.Code, rec.Body.Bytes())
		case signed && !json.Valid(body) && rec.Code != http.StatusBadRequest && !(kind%3 == 0 && event == "ping"):
			t.Fatalf("%s with a body that is not JSON: %d %s; want 400", req.URL.Path, rec.Code, rec.Body.Bytes())
		case rec.Code >= 300 && added != 0:
			t.Fatalf("%s answered %d %s and queued %d tasks", req.URL.Path, rec.Code, rec.Body.Bytes(), added)
		}
	})
}
