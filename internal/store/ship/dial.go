package ship

import "context"

// Dialer opens the shared store at url with open — postgres.Open, passed
// by the daemon and warden-helper, which link pgx — as Options.Dial wants
// it. One place for both, so a store that fails to open gives the same one
// line (naming store.url / WARDEN_DATABASE_URL and the fix) everywhere.
func Dialer[T Target](open func(ctx context.Context, url string) (T, error), url string) func(context.Context) (Target, error) {
	return func(ctx context.Context) (Target, error) {
		t, err := open(ctx, url)
		if err != nil {
			return nil, err // not a typed nil inside a non-nil interface
		}
		return t, nil
	}
}

// Probe opens the shared store with dial, checks it (reachable, schema
// current) and closes it again: what `warden ship --status` and the
// daemon's /health/db ask.
func Probe(ctx context.Context, dial func(context.Context) (Target, error)) error {
	t, err := dial(ctx)
	if err != nil {
		return err
	}
	defer t.Close()
	return t.Check(ctx)
}
