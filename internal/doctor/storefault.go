package doctor

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/storeguard"
)

// lowSpace is the free space on the store's filesystem under which doctor
// warns: below it a busy day's events and the WAL may not fit, and a
// write that fails stops warden serve taking work.
const lowSpace = 64 << 20

// storeFaults reports what would make warden serve stop or refuse to
// start: a store that is not the one it last ran on (missing, or a new
// one in its place: storeguard.Mark), and a filesystem nearly full.
func (d *doctor) storeFaults(ctx context.Context) {
	db := paths.DB()
	mp := storeguard.MarkPath(filepath.Dir(paths.ServeState()))
	m, err := storeguard.ReadMark(mp)
	if err == nil && m != nil {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		err = m.Compare(db, mp, func() (string, error) {
			st, err := sqlite.Open(ctx, db)
			if err != nil {
				return "", err
			}
			defer st.Close()
			id, _, err := st.Setting(ctx, storeguard.StoreIDSetting)
			return id, err
		})
		if err != nil {
			d.problem("store identity", err.Error(), storeguard.NewStoreFix)
		} else if m.Path == db {
			d.ok("store identity", "the store warden serve last ran on (id "+m.StoreID+")")
		}
	}
	if free, ok := freeSpace(filepath.Dir(db)); ok && free < lowSpace {
		d.problem("store disk", fmt.Sprintf("%d MiB free on the filesystem of %s: writes will fail, and warden serve then takes no new work", free>>20, db),
			"free space on that filesystem, then restart warden serve if it runs (systemctl --user restart warden)")
	}
}
