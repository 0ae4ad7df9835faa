package ship

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The shipper links pgx — the network and TLS — so it runs in
// warden-helper (started by the keeper, and `serve`), never in
// warden-core, which every hook the keeper does not answer starts; nor
// does this package link pgx itself (callers pass the dial function), so
// warden-core's doctor can read the spool's report.
func TestShipperStaysOutOfWardenCore(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go tool not on PATH")
	}
	deps := func(pkg string) []string {
		out, err := exec.Command("go", "list", "-deps", "github.com/warden-dev/warden/"+pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", pkg, err, out)
		}
		return strings.Fields(string(out))
	}
	for _, pkg := range []string{"cmd/warden-core", "internal/store/ship"} {
		for _, d := range deps(pkg) {
			if strings.HasPrefix(d, "github.com/jackc/pgx") || d == "crypto/tls" {
				t.Errorf("%s links %s; the shipper's PostgreSQL side belongs in warden-helper", pkg, d)
			}
		}
	}
	for _, cmd := range []string{"cmd/warden-helper"} {
		if !slices.Contains(deps(cmd), "github.com/warden-dev/warden/internal/store/ship") {
			t.Errorf("%s does not link the shipper", cmd)
		}
	}
}
