package doctor

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/helper"
	"github.com/warden-dev/warden/internal/paths"
)

// sharedStore reports the PostgreSQL store store.url / WARDEN_DATABASE_URL
// names, as one line: whether it answers (and why not), its version and
// schema, and what the local store holds that is not shipped yet (spool).
// Without a URL there is nothing to check: the store is the SQLite file
// checked above.
func (d *doctor) sharedStore(ctx context.Context) {
	cfg, _ := config.Load(paths.UserConfig(), "")
	if u, _ := cfg.StoreURL(); u == "" {
		d.info("shared store", "none: store.url and "+config.DatabaseURLEnv+" not set, the SQLite store serves alone")
		return
	}
	d.spool(ctx, paths.DB())
}

// storeCheck is `warden-helper store check --json` (pgx stays out of the
// binaries hooks run): the server's version and whether the schema is the
// one this warden expects.
type storeCheck struct {
	Where         string `json:"where"`
	From          string `json:"from"`
	ServerVersion string `json:"server_version"`
	Error         string `json:"error"`
	OK            bool   `json:"ok"`
}

func checkSharedStore() (storeCheck, error) {
	var r storeCheck
	var out bytes.Buffer
	if _, err := helper.Run([]string{"store", "check", "--json"}, nil, &out, io.Discard); err != nil {
		return r, err
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		return r, fmt.Errorf("warden-helper store check answered no JSON: %w", err)
	}
	return r, nil
}
