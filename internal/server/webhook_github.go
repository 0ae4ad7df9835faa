package server

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/tasksvc"
)

// GitHub: an issue labelled webhook.github_label (when labelled, or opened
// with it) or a comment "/warden run …" becomes a task in the project
// webhook.github_repos maps the repository to. The signature
// (X-Hub-Signature-256, HMAC-SHA256 of the raw body with the secret) is
// checked in constant time before anything is parsed; a redelivery (same
// X-GitHub-Delivery) or the same signed body under another delivery id
// finds the task it made (webhook_dedupe.go).

type ghPayload struct {
	Action string `json:"action"`
	Label  *struct {
		Name string `json:"name"`
	} `json:"label"`
	Issue *struct {
		Number  int    `json:"number"`
		Title   string `json:"title"`
		Body    string `json:"body"`
		HTMLURL string `json:"html_url"`
		// UpdatedAt is when the issue last changed (labelling changes it).
		UpdatedAt time.Time `json:"updated_at"`
		// AuthorAssociation is the opener's relation to the repository.
		AuthorAssociation string `json:"author_association"`
		Labels            []struct {
			Name string `json:"name"`
		} `json:"labels"`
	} `json:"issue"`
	Comment *struct {
		Body string `json:"body"`
		User struct {
			Login string `json:"login"`
		} `json:"user"`
		// AuthorAssociation is the commenter's relation to the
		// repository: OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, NONE…
		AuthorAssociation string    `json:"author_association"`
		CreatedAt         time.Time `json:"created_at"`
	} `json:"comment"`
	Repository *struct {
		FullName string `json:"full_name"`
	} `json:"repository"`
}

// githubSigned reports whether sig is "sha256=" + hex HMAC of body.
func githubSigned(secret string, body []byte, sig string) bool {
	got, ok := strings.CutPrefix(sig, "sha256=")
	if !ok {
		return false
	}
	gotBytes, err := hex.DecodeString(got)
	if err != nil {
		return false
	}
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return hmac.Equal(gotBytes, m.Sum(nil))
}

func (s *Server) webhookGitHub(w http.ResponseWriter, r *http.Request) {
	wh := s.webhooks()
	if wh.GitHubSecret == "" {
		notConfigured(w, "webhook.github_secret")
		return
	}
	// A request without a signature is refused before its body is read.
	if !strings.HasPrefix(r.Header.Get("X-Hub-Signature-256"), "sha256=") {
		badGitHubSignature(w)
		return
	}
	body, ok := readRaw(w, r, githubBodyLimit)
	if !ok {
		return
	}
	if !githubSigned(wh.GitHubSecret, body, r.Header.Get("X-Hub-Signature-256")) {
		s.o.Log.Warn("github webhook: bad signature", "delivery", r.Header.Get("X-GitHub-Delivery"))
		badGitHubSignature(w)
		return
	}
	delivery := r.Header.Get("X-GitHub-Delivery")
	if delivery == "" || len(delivery) > 100 {
		writeError(w, http.StatusBadRequest, "bad_request", "X-GitHub-Delivery header missing or too long")
		return
	}
	ev := r.Header.Get("X-GitHub-Event")
	if ev == "ping" {
		writeJSON(w, http.StatusOK, map[string]any{"ok": true, "event": "ping"})
		return
	}
	if s.seenDelivery(w, r, "github", delivery, bodyKey(body)) {
		return
	}
	var p ghPayload
	if err := json.Unmarshal(body, &p); err != nil {
		writeError(w, http.StatusBadRequest, "bad_request", jsonErrorText(err, githubBodyLimit))
		return
	}
	if p.Repository == nil || p.Issue == nil {
		s.ignored(w, "github", "no repository or issue in a "+ev+" event")
		return
	}
	project, known := wh.GitHubProjects[p.Repository.FullName]
	if !known {
		s.ignored(w, "github", "repository "+p.Repository.FullName+" is not in webhook.github_repos")
		return
	}
	at := p.Issue.UpdatedAt
	if p.Comment != nil {
		at = p.Comment.CreatedAt
	}
	if s.tooOld(w, "github", at) {
		return
	}
	ref := fmt.Sprintf("%s#%d", p.Repository.FullName, p.Issue.Number)
	var prompt string
	switch {
	// Labelling takes triage rights: the labeller is trusted by GitHub.
	case ev == "issues" && p.Action == "labeled" && p.Label != nil && p.Label.Name == wh.GitHubLabel:
		prompt = fmt.Sprintf("Work on GitHub issue %s: %s\n\n%s\n\n(%s)", ref, p.Issue.Title, p.Issue.Body, p.Issue.HTMLURL)
	// An issue template can put the label on anyone's new issue.
	case ev == "issues" && p.Action == "opened" && hasLabel(p, wh.GitHubLabel):
		if !s.trustedOnGitHub(w, p.Issue.AuthorAssociation, "issue opener") {
			return
		}
		prompt = fmt.Sprintf("Work on GitHub issue %s: %s\n\n%s\n\n(%s)", ref, p.Issue.Title, p.Issue.Body, p.Issue.HTMLURL)
	case ev == "issue_comment" && p.Action == "created" && p.Comment != nil && strings.HasPrefix(strings.TrimSpace(p.Comment.Body), "/warden run"):
		if !s.trustedOnGitHub(w, p.Comment.AuthorAssociation, "commenter "+p.Comment.User.Login) {
			return
		}
		what := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(p.Comment.Body), "/warden run"))
		if what == "" {
			what = "Work on the issue."
		}
		prompt = fmt.Sprintf("%s\n\nAsked by %s on GitHub issue %s: %s (%s)\n\n%s", what, p.Comment.User.Login, ref, p.Issue.Title, p.Issue.HTMLURL, p.Issue.Body)
	default:
		s.ignored(w, "github", fmt.Sprintf("%s/%s is not a %q label or a /warden run comment", ev, p.Action, wh.GitHubLabel))
		return
	}
	// The body's hash keys the task: two deliveries of one body racing
	// each other make one task.
	s.webhookTask(w, r, "github", []string{delivery, bodyKey(body)}, tasksvc.Request{Project: project, Prompt: prompt, Source: "github", IdempotencyKey: "github:" + bodyKey(body)})
}

func badGitHubSignature(w http.ResponseWriter) {
	writeError(w, http.StatusUnauthorized, "bad_signature", "X-Hub-Signature-256 is missing or does not match; set the same secret in GitHub and webhook.github_secret")
}

func hasLabel(p ghPayload, name string) bool {
	for _, l := range p.Issue.Labels {
		if l.Name == name {
			return true
		}
	}
	return false
}

// ignored answers 202: understood, nothing to do (GitHub shows it in the
// delivery log).
func (s *Server) ignored(w http.ResponseWriter, source, why string) {
	s.metrics.webhooks.WithLabelValues(source, "ignored").Inc()
	writeJSON(w, http.StatusAccepted, map[string]any{"ignored": why})
}

// webhookTask queues the task of one delivery: 201 when made, 200 with
// duplicate: true for a replay (nothing new); either way the delivery's
// keys are recorded with the task.
func (s *Server) webhookTask(w http.ResponseWriter, r *http.Request, source string, keys []string, req tasksvc.Request) {
	t, created, err := s.tasks.Add(r.Context(), req)
	if err != nil {
		s.metrics.webhooks.WithLabelValues(source, "error").Inc()
		s.writeTaskError(w, err, "")
		return
	}
	s.recordDelivery(r.Context(), source, t.ID, keys...)
	if !created {
		s.metrics.webhooks.WithLabelValues(source, "duplicate").Inc()
		writeJSON(w, http.StatusOK, map[string]any{"duplicate": true, "task": t})
		return
	}
	s.metrics.webhooks.WithLabelValues(source, "task").Inc()
	writeJSON(w, http.StatusCreated, map[string]any{"task": t})
}
