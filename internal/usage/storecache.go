package usage

import (
	"context"

	"github.com/warden-dev/warden/internal/store/sqlite"
)

// The usage cache kept in warden's store: StoreCache adapts the store's
// usage_files rows to Cache.

// StoreCache adapts warden's store to Cache.
type StoreCache struct{ St *sqlite.Store }

// LoadUsageCache implements Cache.
func (c StoreCache) LoadUsageCache(ctx context.Context) (map[string]CachedFile, error) {
	rows, err := c.St.UsageFiles(ctx)
	if err != nil {
		return nil, err
	}
	m := make(map[string]CachedFile, len(rows))
	for _, r := range rows {
		m[r.Path] = CachedFile(r)
	}
	return m, nil
}

// SaveUsageCache implements Cache.
func (c StoreCache) SaveUsageCache(ctx context.Context, upd []CachedFile, remove []string) error {
	return c.St.SaveUsage(ctx, toRows(upd), remove, nil)
}

func toRows(upd []CachedFile) []sqlite.UsageFile {
	rows := make([]sqlite.UsageFile, len(upd))
	for i, u := range upd {
		rows[i] = sqlite.UsageFile(u)
	}
	return rows
}
