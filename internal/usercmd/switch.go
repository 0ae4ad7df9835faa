package usercmd

import (
	"context"
	"errors"

	"github.com/warden-dev/warden/internal/store"
)

// The master switch: `warden off` stops every handler (events are still
// recorded) until `warden on`.

func setEnabled(on bool) func(context.Context, *Env, []string) (string, error) {
	return func(ctx context.Context, env *Env, _ []string) (string, error) {
		if env.Store == nil {
			return "", storeUnavailable(env)
		}
		v := "false"
		if on {
			v = "true"
		}
		if err := env.Store.SetSetting(ctx, store.SettingEnabled, v); err != nil {
			return "", err
		}
		if on {
			return "warden is on: every enabled handler runs again.", nil
		}
		return "warden is off: no handler runs (events are still recorded). Type `warden on` to turn it back on.", nil
	}
}

// Enabled reads the master switch; a missing setting means on.
func Enabled(ctx context.Context, s store.Local) bool {
	if s == nil {
		return true
	}
	v, ok, err := s.Setting(ctx, store.SettingEnabled)
	return err != nil || !ok || v != "false"
}

func storeUnavailable(env *Env) error {
	if env.StoreErr != nil {
		return errors.New("the store is not usable: " + env.StoreErr.Error() + "; run `warden doctor`")
	}
	return errors.New("the store is not usable; run `warden doctor`")
}
