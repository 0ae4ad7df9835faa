package config

// Notes are settings that are valid but may not do what their author
// expects, for `warden config check` to say (they are not problems: the
// check still passes). Today: a webhook switched on whose allow-list is
// empty lets nobody queue work through it.
func Notes(c *Config) []string {
	var notes []string
	if c.Webhook.TelegramSecret != "" && len(c.Webhook.TelegramChats) == 0 {
		notes = append(notes, "webhook.telegram_chats is empty: no Telegram chat may command the daemon; add the chat ids that may")
	}
	if c.Webhook.GitHubSecret != "" && len(c.Webhook.GitHubTrusted) == 0 {
		notes = append(notes, "webhook.github_trusted is empty: nobody's /warden run comment (or labelled new issue) queues a task; OWNER, MEMBER, COLLABORATOR is the default")
	}
	return notes
}
