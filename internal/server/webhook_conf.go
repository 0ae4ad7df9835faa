package server

import "text/template"

// The webhooks' settings change while the daemon runs (a config reload):
// the allow-lists first of all, so a chat or an association taken out of
// the config stops being obeyed at once.

type webhookConf struct {
	Webhooks
	tmpl *template.Template
}

func (s *Server) webhooks() Webhooks { return s.hooks.Load().Webhooks }

// SetWebhooks applies reloaded webhook settings to the next request. A
// template that does not parse is refused and the old settings stay.
func (s *Server) SetWebhooks(wh Webhooks) error {
	if wh.GitHubLabel == "" {
		wh.GitHubLabel = "warden"
	}
	if wh.AlertTemplate == "" {
		wh.AlertTemplate = s.webhooks().AlertTemplate
	}
	tmpl, err := ParseAlertTemplate(wh.AlertTemplate)
	if err != nil {
		return err
	}
	s.hooks.Store(&webhookConf{Webhooks: wh, tmpl: tmpl})
	return nil
}
