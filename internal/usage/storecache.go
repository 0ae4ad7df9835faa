package usage

import (
	"context"

	"github.com/warden-dev/warden/internal/store"
)

// The usage cache kept in warden's store: StoreCache adapts the store's
// usage_files rows to Cache.

// CacheStore is the part of warden's store the usage cache lives in: the
// per-file rows and named snapshots (internal/store/sqlite implements it).
type CacheStore interface {
	UsageFiles(ctx context.Context) ([]store.UsageFile, error)
	UsageFilesByPath(ctx context.Context, paths []string) ([]store.UsageFile, error)
	SaveUsage(ctx context.Context, upd []store.UsageFile, remove []string, snaps []store.UsageSnapshot) error
	UsageSnapshot(ctx context.Context, name string) (fingerprint, data []byte, ok bool, err error)
	SaveUsageSnapshot(ctx context.Context, name string, fingerprint, data []byte) error
}

// StoreCache adapts warden's store to Cache.
type StoreCache struct{ St CacheStore }

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

func toRows(upd []CachedFile) []store.UsageFile {
	rows := make([]store.UsageFile, len(upd))
	for i, u := range upd {
		rows[i] = store.UsageFile(u)
	}
	return rows
}
