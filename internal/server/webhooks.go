package server

import "net/http"

func (s *Server) webhookGitHub(w http.ResponseWriter, r *http.Request) {
	writeError(w, http.StatusNotImplemented, "not_implemented", "GitHub webhooks are not wired yet")
}

func (s *Server) webhookAlertmanager(w http.ResponseWriter, r *http.Request) {
	writeError(w, http.StatusNotImplemented, "not_implemented", "Alertmanager webhooks are not wired yet")
}

func (s *Server) webhookTelegram(w http.ResponseWriter, r *http.Request) {
	writeError(w, http.StatusNotImplemented, "not_implemented", "Telegram webhooks are not wired yet")
}
