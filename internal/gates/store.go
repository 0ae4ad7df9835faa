package gates

import (
	"context"
	"encoding/json"
)

// Settings is the part of the store the gates keep their shared state in
// (store.Store satisfies it).
type Settings interface {
	Setting(ctx context.Context, key string) (string, bool, error)
	SetSetting(ctx context.Context, key, value string) error
}

// SettingSafemode is "on" while safemode denies every mutation. It is
// global (every session, every project) and only the user toggles it.
const SettingSafemode = "safemode"

// Safemode reports whether safemode is on.
func Safemode(ctx context.Context, s Settings) bool {
	v, _, err := s.Setting(ctx, SettingSafemode)
	return err == nil && v == "on"
}

// SetSafemode switches safemode.
func SetSafemode(ctx context.Context, s Settings, on bool) error {
	v := ""
	if on {
		v = "on"
	}
	return s.SetSetting(ctx, SettingSafemode, v)
}

// LoadBreaker reads a project's breaker (zero when none was saved).
func LoadBreaker(ctx context.Context, s Settings, projectDir string) (*Breaker, error) {
	b := &Breaker{}
	v, ok, err := s.Setting(ctx, BreakerKey(projectDir))
	if err != nil || !ok || v == "" {
		return b, err
	}
	if err := json.Unmarshal([]byte(v), b); err != nil {
		return &Breaker{}, nil // unreadable: start closed rather than fail
	}
	return b, nil
}

// SaveBreaker writes a project's breaker.
func SaveBreaker(ctx context.Context, s Settings, projectDir string, b *Breaker) error {
	v, err := json.Marshal(b)
	if err != nil {
		return err
	}
	return s.SetSetting(ctx, BreakerKey(projectDir), string(v))
}
