package server

import (
	"net/http"
	"slices"
	"strings"
)

// Access says who may call a route.
type Access int

const (
	// Public: anyone (only /health).
	Public Access = iota
	// Token: a valid API bearer token (or the dashboard's session cookie).
	Token
	// Loopback: a token and a connection from this machine.
	Loopback
	// Signed: the webhook verifies its own signature or secret.
	Signed
)

// Route is one registered route.
type Route struct {
	Method, Path string
	Access       Access
	Summary      string
	handler      http.HandlerFunc
}

// table is every route of the API.
func (s *Server) table() []Route {
	return []Route{
		{"GET", "/health", Public, "liveness: the daemon answers (status only; version, uptime and shared store with a token)", s.health},
		{"GET", "/health/db", Token, "every store part is up: the local SQLite store and, with [store] url, the shared PostgreSQL store", s.healthDB},
		{"GET", "/health/tmux", Token, "agents can run (tmux reachable)", s.healthTmux},
		{"GET", "/metrics", Token, "Prometheus metrics (text format)", s.metricsHandler},
		{"GET", "/api/openapi.json", Token, "this API as an OpenAPI 3 document", s.openAPI},
		{"POST", "/api/tasks", Token, "queue a task", s.createTask},
		{"GET", "/api/tasks", Token, "list tasks, newest first", s.listTasks},
		{"GET", "/api/tasks/{id}", Token, "one task with its history and scheduling decisions", s.getTask},
		{"POST", "/api/tasks/{id}/cancel", Token, "cancel a task", s.cancelTask},
		{"POST", "/api/tasks/{id}/approve", Token, "approve the tool call a waiting task's agent asks about", s.approveTask},
		{"POST", "/api/tasks/{id}/deny", Token, "deny the tool call a waiting task's agent asks about, with a reason for it", s.denyTask},
		{"POST", "/api/tasks/{id}/reply", Token, "send a follow-up to a task's agent: typed into its prompt while it runs, a new run on its branch once finished", s.replyTask},
		{"POST", "/api/tasks/{id}/merge", Token, "merge a finished task's branch into its base, or open a pull request with gh", s.mergeTask},
		{"GET", "/api/agents", Token, "running agents", s.listAgents},
		{"GET", "/api/projects", Token, "projects seen in tasks and sessions", s.listProjects},
		{"GET", "/api/systems", Token, "the workers sharing this queue (this daemon first) with their agents, load and heartbeat", s.listSystems},
		{"GET", "/api/sessions", Token, "Claude Code sessions, most recent first", s.listSessions},
		{"GET", "/api/events", Token, "recorded hook events, cursor-paged", s.listEvents},
		{"GET", "/api/pace", Token, "the pacing decision in force", s.getPace},
		{"GET", "/api/usage", Token, "usage report: daily, session or blocks", s.getUsage},
		{"POST", "/internal/spawn-agent", Loopback, "start an agent for a task", s.spawnAgent},
		{"POST", "/internal/kill-agent", Loopback, "stop a task's agent", s.killAgent},
		{"GET", "/internal/agent-status", Loopback, "one agent's state", s.agentStatus},
		{"POST", "/webhook/github", Signed, "GitHub issues and comments become tasks", s.webhookGitHub},
		{"POST", "/webhook/alertmanager", Token, "firing alerts become tasks", s.webhookAlertmanager},
		{"POST", "/webhook/telegram", Signed, "Telegram bot commands", s.webhookTelegram},
	}
}

// add registers r, with its access check, and a method-less twin of its
// path that answers 405 in the API's shape with the allowed methods.
func (s *Server) add(r Route) {
	var h http.Handler = r.handler
	if needsShared(r.Path) {
		h = s.requireShared(h)
	}
	switch r.Access {
	case Token:
		h = s.RequireAuth(h)
	case Loopback:
		h = s.requireLoopback(s.RequireAuth(h))
	}
	s.mux.Handle(r.Method+" "+r.Path, h)
	first := !slices.ContainsFunc(s.routes, func(o Route) bool { return o.Path == r.Path })
	s.routes = append(s.routes, r)
	if first {
		path := r.Path
		s.mux.HandleFunc(path, func(w http.ResponseWriter, req *http.Request) {
			var allow []string
			for _, o := range s.routes {
				if o.Path == path {
					allow = append(allow, o.Method)
				}
			}
			w.Header().Set("Allow", strings.Join(allow, ", "))
			writeError(w, http.StatusMethodNotAllowed, "method_not_allowed",
				req.Method+" is not allowed on "+path+"; use "+strings.Join(allow, " or "))
		})
	}
}
