package store

import (
	"fmt"
	"strings"
	"time"
)

// What an API token may do. Scopes nest: admin ⊇ tasks ⊇ read. A
// webhook:NAME token may call only /webhook/NAME (the credential an
// outside service such as Alertmanager is given, so a leaked one can
// neither read the store nor queue a task of its own making).
const (
	// ScopeRead: every GET of the API and the dashboard's pages.
	ScopeRead = "read"
	// ScopeTasks: read, and queue, cancel, approve or deny tasks.
	ScopeTasks = "tasks"
	// ScopeAdmin: everything, the loopback-only agent control routes
	// included. The local CLI's token is admin; so is every token made
	// before tokens had scopes (migration 0075 gives them admin, the
	// access they had).
	ScopeAdmin = "admin"
	// ScopeWebhookPrefix starts webhook:NAME.
	ScopeWebhookPrefix = "webhook:"
)

// Webhooks a webhook:NAME token can be for: the routes that take an API
// token rather than checking a signature of their own.
var tokenWebhooks = []string{"alertmanager"}

// ParseScope checks a scope as given to `warden token create --scope`.
func ParseScope(s string) (string, error) {
	switch s {
	case ScopeRead, ScopeTasks, ScopeAdmin:
		return s, nil
	}
	if name, ok := strings.CutPrefix(s, ScopeWebhookPrefix); ok {
		for _, w := range tokenWebhooks {
			if name == w {
				return s, nil
			}
		}
	}
	return "", fmt.Errorf("scope %q: use read, tasks, admin or webhook:alertmanager", s)
}

// EffectiveScope is the token's scope; empty is admin (a token stored
// without one predates scopes and always had full access).
func (t *APIToken) EffectiveScope() string {
	if t.Scope == "" {
		return ScopeAdmin
	}
	return t.Scope
}

// Allows reports whether the token's scope covers need (one of the
// Scope constants, or webhook:NAME).
func (t *APIToken) Allows(need string) bool {
	have := t.EffectiveScope()
	switch have {
	case ScopeAdmin:
		return true
	case ScopeTasks:
		return need != ScopeAdmin
	case ScopeRead:
		return need == ScopeRead
	}
	return have == need // webhook:NAME
}

// Expired reports whether the token's expiry has come by now.
func (t *APIToken) Expired(now time.Time) bool {
	return t.Expires != nil && !now.Before(*t.Expires)
}

// ParseExpiry reads `--expires`: a number of days ("30d"), weeks ("2w"),
// a Go duration ("12h", "90m") or a date ("2027-01-31", UTC midnight).
// The result is the instant the token stops working, after now.
func ParseExpiry(s string, now time.Time) (time.Time, error) {
	bad := fmt.Errorf("--expires %q: give a time from now such as 30d, 2w or 12h, or a date such as 2027-01-31", s)
	var at time.Time
	switch {
	case s == "":
		return time.Time{}, bad
	case strings.HasSuffix(s, "d") || strings.HasSuffix(s, "w"):
		var n int
		if _, err := fmt.Sscanf(s[:len(s)-1], "%d", &n); err != nil || fmt.Sprint(n) != s[:len(s)-1] || n <= 0 || n > 3650 {
			return time.Time{}, bad
		}
		days := n
		if strings.HasSuffix(s, "w") {
			days = 7 * n
		}
		at = now.AddDate(0, 0, days)
	default:
		if d, err := time.ParseDuration(s); err == nil {
			at = now.Add(d)
		} else if day, err := time.Parse("2006-01-02", s); err == nil {
			at = day
		} else {
			return time.Time{}, bad
		}
	}
	if !at.After(now) {
		return time.Time{}, fmt.Errorf("--expires %q: that is not after now (%s)", s, now.UTC().Format(time.RFC3339))
	}
	return at.UTC(), nil
}
