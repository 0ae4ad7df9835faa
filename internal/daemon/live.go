package daemon

import (
	"context"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/agent"
	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/notify"
	"github.com/warden-dev/warden/internal/orchestrator"
	"github.com/warden-dev/warden/internal/pace"
	"github.com/warden-dev/warden/internal/pace/quota"
	"github.com/warden-dev/warden/internal/task"
)

// cfg is the config in force: the reloaded one once the daemon runs, the
// start-up one before (and in tests that build parts by hand).
func (o *Options) cfg() *config.Config {
	if o.live != nil {
		return o.live.Get()
	}
	return o.Config
}

// onReload registers a part's applier when the daemon watches its config.
func (o *Options) onReload(name string, fn func(*config.Config)) {
	if o.live != nil {
		o.live.onReload(name, fn)
	}
}

// configStatus is /health's "config".
func (o *Options) configStatus() func() any {
	if o.live == nil {
		return nil
	}
	return func() any { return o.live.Stamp() }
}

// liveQuota is the scheduler's quota source over the pacing settings in
// force: a reloaded pacing.* holds or frees new work from the next step.
type liveQuota struct {
	o     *Options
	store quota.Store
}

func (q liveQuota) Quota(ctx context.Context, now time.Time) (orchestrator.Quota, error) {
	ps := pace.SettingsFrom(q.o.cfg())
	return (&orchestrator.PaceQuota{Settings: ps, Figures: orchestrator.StoreFigures(q.store, ps)}).Quota(ctx, now)
}

// notifySettings are where a waiting agent's notice goes, from cfg.
func notifySettings(cfg *config.Config) notify.Settings {
	s := notify.Settings{WebhookURLs: cfg.Notify.WebhookURLs, Retries: cfg.Notify.Retries,
		Timeout: time.Duration(cfg.Notify.WebhookTimeoutMS) * time.Millisecond}
	if cfg.Notify.TelegramToken != "" {
		s.Telegram = notify.Telegram{API: cfg.Notify.TelegramAPI, Token: cfg.Notify.TelegramToken, Chats: webhooks(cfg).TelegramChats}
	}
	return s
}

// noticeFor is the notice of task id's agent that started waiting: its
// pending call, the policy's reason, the task's title and page.
func (o *Options) noticeFor(ctx context.Context, tasks task.Store, m *agent.Manager, id, reason string) notify.Notice {
	n := notify.Notice{Event: notify.EventWaiting, Task: id, Reason: reason, At: time.Now().UTC(), Answer: notify.AnswerCommands(id)}
	if t, err := tasks.Task(ctx, id); err == nil && t != nil {
		n.Title, n.Project = notify.Title(t.Prompt), t.Project
	}
	if s, err := m.Status(ctx, id); err == nil && s != nil {
		if p := agent.Pending(s.Agent); p != nil {
			n.Tool, n.Call, n.Rule, n.Explanation = p.Tool, p.Call, p.Rule, p.Reason
		}
	}
	base := o.cfg().Notify.DashboardURL
	if base == "" {
		base = o.BaseURL
	}
	if base != "" {
		n.Link = strings.TrimRight(base, "/") + "/tasks/" + id
	}
	return n
}
