package ship

import (
	"context"

	"github.com/warden-dev/warden/internal/store/postgres"
)

// Postgres is the Dial of the PostgreSQL store at url. Opening it checks
// the server and applies pending migrations; its errors are one line that
// names the setting and the fix (postgres.Open).
func Postgres(url string) func(ctx context.Context) (Target, error) {
	return func(ctx context.Context) (Target, error) {
		st, err := postgres.Open(ctx, url)
		if err != nil {
			return nil, err
		}
		return st, nil
	}
}

var _ Target = (*postgres.Store)(nil)
