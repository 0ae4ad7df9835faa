package server

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// Who may queue work through a webhook. A signature or secret proves only
// which service sent a request, not who wrote what it carries: every
// channel that can queue work has an allow-list, and an empty one means
// nobody.

// defaultGitHubTrusted: the author_association values that have write
// access or more to the repository.
var defaultGitHubTrusted = []string{"OWNER", "MEMBER", "COLLABORATOR"}

// trustedOnGitHub reports whether assoc (author_association) may queue
// work; if not it answers 202 ignored, naming the key that would allow it.
func (s *Server) trustedOnGitHub(w http.ResponseWriter, assoc, who string) bool {
	trusted := s.webhooks().GitHubTrusted
	if trusted == nil {
		trusted = defaultGitHubTrusted
	}
	if assoc != "" && slices.ContainsFunc(trusted, func(t string) bool { return strings.EqualFold(t, assoc) }) {
		return true
	}
	s.o.Log.Warn("github webhook: author not trusted", "who", who, "author_association", assoc)
	s.ignored(w, "github", fmt.Sprintf("%s is %s, not one of webhook.github_trusted (%s)", who, orNone(assoc), strings.Join(trusted, ", ")))
	return false
}

// telegramAllowed reports whether chat may command the daemon; if not it
// answers 202 ignored. Empty webhook.telegram_chats allows no chat.
func (s *Server) telegramAllowed(w http.ResponseWriter, chat int64) bool {
	if slices.Contains(s.webhooks().TelegramChats, chat) {
		return true
	}
	s.o.Log.Warn("telegram: command from a chat not in webhook.telegram_chats", "chat", chat)
	s.ignored(w, "telegram", fmt.Sprintf("chat %d is not in webhook.telegram_chats", chat))
	return false
}

func orNone(s string) string {
	if s == "" {
		return "without an author_association"
	}
	return s
}
