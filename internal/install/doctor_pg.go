package install

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/helper"
	"github.com/warden-dev/warden/internal/paths"
)

// sharedStore checks the PostgreSQL store store.url / WARDEN_DATABASE_URL
// names, through `warden-helper store check --json` (pgx stays out of the
// binary hooks run). Without a URL there is nothing to check: the store is
// the SQLite file checked above.
func (d *doctor) sharedStore() {
	cfg, _ := config.Load(paths.UserConfig(), "")
	if u, _ := cfg.StoreURL(); u == "" {
		d.info("shared store", "none: store.url and "+config.DatabaseURLEnv+" not set, the SQLite store serves alone")
		return
	}
	var out bytes.Buffer
	_, err := helper.Run([]string{"store", "check", "--json"}, nil, &out, io.Discard)
	if err != nil {
		d.warn("shared store", "cannot check it: "+err.Error(), "run `make install` (it installs warden-helper beside warden)")
		return
	}
	var r struct {
		Where         string `json:"where"`
		From          string `json:"from"`
		ServerVersion string `json:"server_version"`
		Error         string `json:"error"`
		OK            bool   `json:"ok"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		d.warn("shared store", "warden-helper store check answered no JSON", "run `warden store check` to see why")
		return
	}
	if !r.OK {
		d.problem("shared store", r.Error, "fix store.url / "+config.DatabaseURLEnv+" or the server, then run `warden store check`")
		return
	}
	d.ok("shared store", "PostgreSQL "+r.ServerVersion+" at "+r.Where+" (from "+r.From+"), schema current")
}
