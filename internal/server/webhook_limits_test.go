package server_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/server"
)

// TestWebhookBodiesAreCappedBeforeTheyAreTrusted: the GitHub route is
// open to anyone, so what it reads before the signature is checked must
// be small (an issue_comment is tens of KB); a larger body is refused
// with 413, whether or not its length is announced, and whether or not it
// is signed. Telegram's updates are small too.
func TestWebhookBodiesAreCappedBeforeTheyAreTrusted(t *testing.T) {
	r := newAPIRig(t, 100, server.Webhooks{GitHubSecret: ghSecret, TelegramSecret: tgSecret, TelegramProject: "x", TelegramChats: []int64{42}})
	pad := strings.Repeat("a", 2<<20)
	comment := fmt.Sprintf(`{"action":"created","comment":{"body":"/warden run x","user":{"login":"ann"}},"issue":{"number":7,"title":"t","body":%q,"html_url":"u"},"repository":{"full_name":"acme/app"}}`, pad)
	tg := fmt.Sprintf(`{"update_id":1,"message":{"message_id":1,"chat":{"id":42},"text":%q}}`, "/task add "+pad)
	cases := []struct {
		name, path, body string
		hdr              map[string]string
		chunked          bool
	}{
		{"github signed", "/webhook/github", comment, map[string]string{"X-GitHub-Event": "issue_comment", "X-GitHub-Delivery": "d1", "X-Hub-Signature-256": ghSign(comment)}, false},
		{"github bad signature", "/webhook/github", comment, map[string]string{"X-GitHub-Event": "issue_comment", "X-GitHub-Delivery": "d2", "X-Hub-Signature-256": "sha256=00"}, false},
		{"github chunked", "/webhook/github", comment, map[string]string{"X-GitHub-Event": "issue_comment", "X-GitHub-Delivery": "d3", "X-Hub-Signature-256": ghSign(comment)}, true},
		{"telegram", "/webhook/telegram", tg, map[string]string{"X-Telegram-Bot-Api-Secret-Token": tgSecret}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var body io.Reader = strings.NewReader(c.body)
			if c.chunked {
				body = struct{ io.Reader }{body} // no length known: sent chunked
			}
			req, err := http.NewRequest("POST", r.ts.URL+c.path, body)
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range c.hdr {
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(b), "too_large") {
				t.Errorf("%d %s; want 413 too_large", resp.StatusCode, b)
			}
		})
	}
	if n := r.taskCount(); n != 0 {
		t.Errorf("%d tasks queued from oversized bodies", n)
	}
}
