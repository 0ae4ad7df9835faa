package install

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/warden-dev/warden/internal/harness"
	"github.com/warden-dev/warden/internal/paths"
)

// EnsureHarness is `warden install --harness h --yes` for what warden
// serve needs before it runs an agent of CLI h: warden's hooks registered
// in that CLI's user configuration (Codex's trust entries included), each
// file backed up first as install does. The binaries must be installed
// already (the daemon runs from them). It changes nothing when the hooks
// are there; note names the files it wrote otherwise.
func EnsureHarness(h harness.Name) (note string, err error) {
	bin, err := filepath.Abs(paths.Bin())
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(bin); err != nil {
		return "", fmt.Errorf("warden is not installed at %s, which %s's hooks would run: run `warden install --harness %s`", bin, h.Title(), h)
	}
	changes, err := planHarness(h, bin, true)
	if err != nil {
		return "", err
	}
	if len(changes) == 0 {
		return "", nil
	}
	o, err := Options{Harness: h}.withDefaults()
	if err != nil {
		return "", err
	}
	var wrote []string
	for _, c := range changes {
		if _, err := c.apply(o); err != nil {
			return "", fmt.Errorf("%w; run `warden install --harness %s` to see the change", err, h)
		}
		wrote = append(wrote, c.s.Path)
	}
	return fmt.Sprintf("installed warden's %s hooks (%s)", h, strings.Join(wrote, ", ")), nil
}
