package daemon

import (
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/warden-dev/warden/internal/config"
)

// A reload applies a clean file to every applier, names the keys that
// need a restart, and refuses a file with a problem (the config in force
// and its stamp stay, the stamp says why); readers see one config or the
// other while reloads run.
func TestLiveConfigReload(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	write := func(s string) {
		if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("[serve]\nmax_agents = 2\n")
	start, problems := config.Load(path, "")
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	l := newLiveConfig(path, start, slog.New(slog.DiscardHandler))
	var stamps []ConfigStamp
	l.onStamp = func(s ConfigStamp) { stamps = append(stamps, s) }
	var applied []int
	l.onReload("slots", func(c *config.Config) { applied = append(applied, c.Serve.MaxAgents) })
	l.onReload("slots", func(c *config.Config) { applied = append(applied, 100+c.Serve.MaxAgents) }) // rebuilt: replaces

	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Go(func() { // readers during the reloads (go test -race)
		for {
			select {
			case <-stop:
				return
			default:
				if n := l.Get().Serve.MaxAgents; n != 2 && n != 5 {
					t.Errorf("a reader saw max_agents %d", n)
				}
				_ = l.Stamp()
			}
		}
	})

	write("[serve]\nmax_agents = 5\nsystem = \"b\"\n\n[notify]\nretries = 1\n")
	res := l.Reload("test")
	if !res.Applied || !slices.Equal(res.Changed, []string{"notify.retries", "serve.max_agents", "serve.system"}) || !slices.Equal(res.NeedsRestart, []string{"serve.system"}) {
		t.Errorf("reload: %+v", res)
	}
	if !slices.Equal(applied, []int{105}) || l.Get().Notify.Retries != 1 {
		t.Errorf("applied %v, retries %d", applied, l.Get().Notify.Retries)
	}
	good := l.Stamp()
	if h, _, _ := fileHash(path); good.Hash != h || good.Error != "" || !slices.Equal(good.NeedsRestart, []string{"serve.system"}) {
		t.Errorf("stamp %+v", good)
	}

	write("[serve]\nmax_agents = 5\nmax_agnets = 3\n")
	res = l.Reload("SIGHUP")
	if res.Applied || len(res.Problems) != 1 || !strings.Contains(res.Problems[0], "max_agnets") {
		t.Errorf("broken reload: %+v", res)
	}
	bad := l.Stamp()
	if bad.Hash != good.Hash || !strings.Contains(bad.Error, "SIGHUP: not applied") || l.Get().Serve.System != "b" || len(applied) != 1 {
		t.Errorf("after a refused reload: stamp %+v, system %q, applied %v", bad, l.Get().Serve.System, applied)
	}
	close(stop)
	wg.Wait()
	if len(stamps) != 2 || stamps[1].Error == "" {
		t.Errorf("state file writes %+v", stamps)
	}
}
