package daemon

import (
	"context"
	"sync"
	"time"

	"github.com/warden-dev/warden/internal/usage"
)

// UsageReader answers /api/usage with the JSON `warden usage REPORT
// --json` prints, from the transcript directories found at start-up (the
// hook server swaps the process environment, so they are not looked up
// per request). One report is built at a time: a cold scan is heavy.
func UsageReader(st usage.CacheStore, dirs []string) func(ctx context.Context, report string) (any, error) {
	var mu sync.Mutex
	return func(ctx context.Context, report string) (any, error) {
		mu.Lock()
		defer mu.Unlock()
		opt := usage.Options{Cache: usage.StoreCache{St: st}}
		files, err := usage.DiscoverStore(ctx, st, dirs)
		if err != nil {
			return nil, err
		}
		opt.Files = files
		if report == "blocks" {
			aggs, _, err := usage.LoadBlocks(ctx, st, opt, 5*time.Hour)
			if err != nil {
				return nil, err
			}
			return usage.FinishBlocks(aggs, usage.BlockOptions{Length: 5 * time.Hour}), nil
		}
		d, err := usage.Load(ctx, opt)
		if err != nil {
			return nil, err
		}
		es := d.Select(usage.Filter{Loc: time.Local})
		if report == "session" {
			return usage.Sessions(d, es), nil
		}
		rows, t := usage.Periods(d, es, usage.Daily, time.Local, time.Sunday)
		return usage.PeriodJSON(usage.Daily, rows, t), nil
	}
}
