package server_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/server"
	"github.com/warden-dev/warden/internal/testenv"
)

// clockRig is an API rig whose clock the test moves.
func clockRig(t *testing.T, wh server.Webhooks) (*apiRig, func(time.Duration), time.Time) {
	var now atomic.Pointer[time.Time]
	start := testenv.Now().UTC().Truncate(time.Second)
	now.Store(&start)
	r := newAPIRig(t, 50, wh, func(o *server.Options) { o.Now = func() time.Time { return *now.Load() } })
	advance := func(d time.Duration) { n := now.Load().Add(d); now.Store(&n) }
	return r, advance, start
}

// The same signed GitHub body makes one task whether GitHub redelivers
// it (same X-GitHub-Delivery) or someone replays it under a new delivery
// id; once the deliveries are pruned past the window, the replay is still
// refused as too old, and a comment already older than the window never
// queues anything.
func TestGitHubReplaysActOnce(t *testing.T) {
	r, advance, start := clockRig(t, server.Webhooks{GitHubSecret: ghSecret})
	comment := func(at time.Time, text string) string {
		return fmt.Sprintf(`{"action":"created","comment":{"body":"/warden run %s","user":{"login":"ann"},"author_association":"OWNER","created_at":%q},"issue":{"number":7,"title":"Crash","body":"","html_url":"u","updated_at":%q},"repository":{"full_name":"acme/app"}}`,
			text, at.Format(time.RFC3339), at.Format(time.RFC3339))
	}
	send := func(delivery, body string) (int, string) {
		code, b, _ := r.do("POST", "/webhook/github", body, "", map[string]string{"X-GitHub-Event": "issue_comment", "X-GitHub-Delivery": delivery, "X-Hub-Signature-256": ghSign(body)})
		return code, string(b)
	}
	body := comment(start, "fix it")
	if code, b := send("d-1", body); code != 201 {
		t.Fatalf("first delivery: %d %s", code, b)
	}
	for _, d := range []string{"d-1", "d-2-replayed"} {
		if code, b := send(d, body); code != 200 || !strings.Contains(b, `"duplicate":true`) || !strings.Contains(b, `"task"`) {
			t.Errorf("delivery %s of the same body: %d %s; want 200 duplicate with its task", d, code, b)
		}
	}
	if n := r.taskCount(); n != 1 {
		t.Fatalf("%d tasks from one body", n)
	}
	// Past the window: another delivery prunes the record; the old body
	// is refused by its own date.
	advance(server.DeliveryWindow + time.Hour)
	if code, b := send("d-3", comment(start.Add(server.DeliveryWindow), "new work")); code != 201 {
		t.Fatalf("a fresh comment: %d %s", code, b)
	}
	if _, seen, _ := r.st.DeliveryTask(context.Background(), "github", "d-1"); seen {
		t.Error("the delivery record outlived the window")
	}
	if code, b := send("d-4-late-replay", body); code != 202 || !strings.Contains(b, "older than the 30 days") {
		t.Errorf("replay after the window: %d %s; want 202 ignored as too old", code, b)
	}
	if n := r.taskCount(); n != 2 {
		t.Errorf("%d tasks; want 2", n)
	}
}

// Alertmanager repeats a firing alert, also in another group; it is one
// task, and the delivery record names it.
func TestAlertmanagerRepeatsActOnce(t *testing.T) {
	r, advance, _ := clockRig(t, server.Webhooks{AlertProject: "x"})
	alert := func(group string) string {
		return fmt.Sprintf(`{"version":"4","groupKey":%q,"status":"firing","alerts":[{"status":"firing","labels":{"alertname":"DiskFull"},"startsAt":"2026-11-26T01:00:00Z","fingerprint":"abc"}]}`, group)
	}
	code, b, _ := r.do("POST", "/webhook/alertmanager", alert("{}:{alertname=\"DiskFull\"}"), r.token, nil)
	if code != 201 {
		t.Fatalf("first: %d %s", code, b)
	}
	id := decode(t, b)["created"].([]any)[0].(string)
	for i, group := range []string{"{}:{alertname=\"DiskFull\"}", "{}:{team=\"ops\"}"} {
		advance(4 * time.Hour) // repeat_interval
		code, b, _ := r.do("POST", "/webhook/alertmanager", alert(group), r.token, nil)
		if code != 200 || !strings.Contains(string(b), `"existing":["`+id+`"]`) {
			t.Errorf("repeat %d: %d %s; want 200 naming %s as existing", i, code, b, id)
		}
	}
	if task, seen, _ := r.st.DeliveryTask(context.Background(), "alertmanager", "alertmanager:abc:2026-11-26T01:00:00Z"); !seen || task != id {
		t.Errorf("delivery record: %q %v", task, seen)
	}
	if n := r.taskCount(); n != 1 {
		t.Errorf("%d tasks from one firing", n)
	}
}

// Telegram resends an update it got no answer for: the command runs
// once. An update older than the window is ignored.
func TestTelegramUpdatesActOnce(t *testing.T) {
	r, _, start := clockRig(t, server.Webhooks{TelegramSecret: tgSecret, TelegramProject: "x", TelegramChats: []int64{42}})
	upd := func(id int, at time.Time) string {
		return fmt.Sprintf(`{"update_id":%d,"message":{"message_id":1,"date":%d,"chat":{"id":42},"text":"/task add rotate the logs"}}`, id, at.Unix())
	}
	hdr := map[string]string{"X-Telegram-Bot-Api-Secret-Token": tgSecret}
	if code, b, _ := r.do("POST", "/webhook/telegram", upd(7, start), "", hdr); code != 200 || !strings.Contains(string(b), "queued t") {
		t.Fatalf("first: %d %s", code, b)
	}
	if code, b, _ := r.do("POST", "/webhook/telegram", upd(7, start), "", hdr); code != 200 || !strings.Contains(string(b), `"duplicate":true`) {
		t.Errorf("resent: %d %s", code, b)
	}
	old := start.Add(-server.DeliveryWindow - time.Hour)
	if code, b, _ := r.do("POST", "/webhook/telegram", upd(3, old), "", hdr); code != 202 || !strings.Contains(string(b), "older than") {
		t.Errorf("old update: %d %s", code, b)
	}
	if n := r.taskCount(); n != 1 {
		t.Errorf("%d tasks; want 1", n)
	}
}
