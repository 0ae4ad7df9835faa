package ship

import (
	"context"
	"os"
	"strings"

	"github.com/warden-dev/warden/internal/store/postgres"
)

// EnvURL is the variable that names the shared store; it wins over the
// config's store.url.
const EnvURL = "WARDEN_DATABASE_URL"

// URL is the shared store's URL: $WARDEN_DATABASE_URL, else configured
// (the config's store.url); "" means no shared store, nothing to ship.
func URL(configured string) string {
	if v := strings.TrimSpace(os.Getenv(EnvURL)); v != "" {
		return v
	}
	return strings.TrimSpace(configured)
}

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
