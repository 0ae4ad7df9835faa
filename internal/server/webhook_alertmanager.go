package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"text/template"
	"time"

	"github.com/warden-dev/warden/internal/task"
	"github.com/warden-dev/warden/internal/tasksvc"
)

// Alertmanager (webhook_config with an API token as its bearer
// credentials): each firing alert becomes a task in
// webhook.alertmanager_project, its prompt from
// webhook.alertmanager_template. Alertmanager repeats a notification while
// the alert fires; the idempotency key (fingerprint and start) makes one
// task per firing, not one per repeat.

type amAlert struct {
	Status       string            `json:"status"`
	Labels       map[string]string `json:"labels"`
	Annotations  map[string]string `json:"annotations"`
	StartsAt     time.Time         `json:"startsAt"`
	GeneratorURL string            `json:"generatorURL"`
	Fingerprint  string            `json:"fingerprint"`
}

type amPayload struct {
	Version string    `json:"version"`
	Status  string    `json:"status"`
	Alerts  []amAlert `json:"alerts"`
}

// alertView is what the template sees.
type alertView struct {
	Labels, Annotations map[string]string
	StartsAt            time.Time
	GeneratorURL        string
	Fingerprint         string
}

// ParseAlertTemplate checks webhook.alertmanager_template.
func ParseAlertTemplate(text string) (*template.Template, error) {
	t, err := template.New("alert").Option("missingkey=zero").Parse(text)
	if err != nil {
		return nil, fmt.Errorf("webhook.alertmanager_template: %w", err)
	}
	return t, nil
}

func (s *Server) webhookAlertmanager(w http.ResponseWriter, r *http.Request) {
	wh := s.webhooks()
	if wh.AlertProject == "" {
		notConfigured(w, "webhook.alertmanager_project")
		return
	}
	body, ok := readRaw(w, r, alertmanagerBodyLimit)
	if !ok {
		return
	}
	var p amPayload
	if err := json.Unmarshal(body, &p); err != nil {
		writeError(w, http.StatusBadRequest, "bad_request", jsonErrorText(err, alertmanagerBodyLimit))
		return
	}
	if p.Version != "4" {
		writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("version %q: this endpoint takes Alertmanager's webhook payload version 4", p.Version))
		return
	}
	if len(p.Alerts) > 100 {
		writeError(w, http.StatusRequestEntityTooLarge, "too_large", fmt.Sprintf("%d alerts in one notification; group them (max_alerts) to 100 at most", len(p.Alerts)))
		return
	}
	// Every alert is checked and its prompt rendered before any is
	// queued: a notification refused for its third alert must not leave
	// the first two queued behind the refusal.
	type firing struct {
		i   int
		req tasksvc.Request
	}
	var todo []firing
	for i, a := range p.Alerts {
		if a.Status != "firing" {
			continue
		}
		if a.Fingerprint == "" || a.StartsAt.IsZero() {
			writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("alerts[%d] has no fingerprint or startsAt", i))
			return
		}
		var b bytes.Buffer
		if err := s.hooks.Load().tmpl.Execute(&b, alertView{Labels: a.Labels, Annotations: a.Annotations, StartsAt: a.StartsAt,
			GeneratorURL: a.GeneratorURL, Fingerprint: a.Fingerprint}); err != nil {
			writeError(w, http.StatusInternalServerError, "template", "webhook.alertmanager_template failed: "+err.Error())
			return
		}
		req := tasksvc.Request{Project: wh.AlertProject, Prompt: strings.TrimSpace(b.String()), Source: "alertmanager",
			IdempotencyKey: "alertmanager:" + a.Fingerprint + ":" + a.StartsAt.UTC().Format(time.RFC3339)}
		draft := task.Task{Project: req.Project, Prompt: req.Prompt, IdempotencyKey: req.IdempotencyKey}
		if err := draft.Check(); err != nil {
			writeError(w, http.StatusBadRequest, "invalid_task", fmt.Sprintf("alerts[%d]: %v", i, err))
			return
		}
		todo = append(todo, firing{i, req})
	}
	created, existing := []string{}, []string{}
	for _, f := range todo {
		key := f.req.IdempotencyKey
		// A firing seen before is not queued again, even when its task
		// is gone (pruned) while Alertmanager still repeats it.
		if id, seen := s.deliverySeen(r.Context(), "alertmanager", key); seen {
			existing = append(existing, id)
			s.metrics.webhooks.WithLabelValues("alertmanager", "duplicate").Inc()
			continue
		}
		// An error here is the queue's (full, the store), not the
		// body's: the alerts queued before it stay, and Alertmanager's
		// retry of the notification finds them by their keys.
		t, made, err := s.tasks.Add(r.Context(), f.req)
		if err != nil {
			s.metrics.webhooks.WithLabelValues("alertmanager", "error").Inc()
			status, code := taskErrorStatus(err)
			writeError(w, status, code, fmt.Sprintf("alerts[%d]: %s", f.i, err))
			return
		}
		s.recordDelivery(r.Context(), "alertmanager", t.ID, key)
		if made {
			created = append(created, t.ID)
			s.metrics.webhooks.WithLabelValues("alertmanager", "task").Inc()
		} else {
			existing = append(existing, t.ID)
			s.metrics.webhooks.WithLabelValues("alertmanager", "duplicate").Inc()
		}
	}
	status := http.StatusOK
	if len(created) > 0 {
		status = http.StatusCreated
	}
	writeJSON(w, status, map[string]any{"created": created, "existing": existing})
}
