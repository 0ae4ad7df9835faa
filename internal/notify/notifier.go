package notify

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"
)

// Settings are where notices go; read anew for every notice, so a
// reloaded config applies to the next one.
type Settings struct {
	WebhookURLs []string
	Timeout     time.Duration // per delivery attempt
	Retries     int
	Telegram    Telegram // off without a token or chats
}

// Notifier delivers notices in the background.
type Notifier struct {
	settings func() Settings
	client   *http.Client
	log      *slog.Logger
	queue    chan Notice
	// Backoff is the first wait between retries (default 1 s).
	Backoff time.Duration
}

// queueSize bounds the notices waiting for delivery; more are dropped
// (and logged) rather than held in memory or waited for.
const queueSize = 64

// New returns a notifier over settings; Run delivers.
func New(settings func() Settings, log *slog.Logger) *Notifier {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Notifier{settings: settings, client: &http.Client{}, log: log, queue: make(chan Notice, queueSize), Backoff: time.Second}
}

// Notify queues n and returns at once; false when the queue is full.
func (n *Notifier) Notify(no Notice) bool {
	select {
	case n.queue <- no:
		return true
	default:
		n.log.Warn("notice dropped: the delivery queue is full", "task", no.Task)
		return false
	}
}

// Run delivers queued notices until ctx ends.
func (n *Notifier) Run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case no := <-n.queue:
			if err := n.Deliver(ctx, no); err != nil {
				n.log.Warn("notice not delivered", "task", no.Task, "err", err)
			} else {
				n.log.Info("notice delivered", "task", no.Task)
			}
		}
	}
}

// Deliver sends no to every target at once and waits for all of them
// (each with its own retries); the error joins the targets that failed.
func (n *Notifier) Deliver(ctx context.Context, no Notice) error {
	s := n.settings()
	if s.Timeout <= 0 {
		s.Timeout = 5 * time.Second
	}
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	fail := func(err error) {
		mu.Lock()
		errs = append(errs, err)
		mu.Unlock()
	}
	for i, u := range s.WebhookURLs {
		wg.Go(func() {
			err := retry(ctx, s.Retries, n.Backoff, func() error { return post(ctx, n.client, u, no, s.Timeout, nil) })
			if err != nil {
				// The URL may carry a secret: name it by its place.
				fail(fmt.Errorf("notify.webhook_urls[%d]: %w", i, err))
			}
		})
	}
	if tg := s.Telegram; tg.Token != "" {
		text := no.Text()
		buttons := "" // only a pending call has something to approve
		if no.Tool != "" {
			buttons = no.Task
		}
		for _, chat := range tg.Chats {
			wg.Go(func() {
				err := retry(ctx, s.Retries, n.Backoff, func() error { return tg.sendMessage(ctx, n.client, chat, text, buttons, s.Timeout) })
				if err != nil {
					fail(fmt.Errorf("telegram chat %d: %s", chat, redactToken(err.Error(), tg.Token)))
				}
			})
		}
	}
	wg.Wait()
	return errors.Join(errs...)
}
