package statusline

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/pace/quota"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/testenv"
)

func TestPaceSegmentAndSnapshot(t *testing.T) {
	home := t.TempDir()
	t.Setenv("WARDEN_HOME", home)
	now := testenv.Now()
	payload := fmt.Sprintf(`{"session_id":"s1","model":{"display_name":"Opus"},"workspace":{"project_dir":%q},
		"rate_limits":{"five_hour":{"used_percentage":42,"resets_at":%d},"seven_day":{"used_percentage":61,"resets_at":%d}}}`,
		t.TempDir(), now.Add(2*time.Hour).Unix(), now.Add(3*24*time.Hour).Unix())
	var out bytes.Buffer
	Run(strings.NewReader(payload), &out, Live(Options{Columns: 200, Now: testenv.Now, StoreBudget: time.Minute}))
	if !strings.Contains(out.String(), "5h 42%/") || !strings.Contains(out.String(), "7d 61%/") {
		t.Fatalf("no pace segment: %q", out.String())
	}
	st, err := sqlite.Open(context.Background(), filepath.Join(home, "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	snap, err := st.LatestSnapshot(context.Background(), quota.SourceStatusline)
	if err != nil || snap == nil || snap.FiveHour.Util == nil || *snap.FiveHour.Util != 42 || snap.SessionID != "s1" {
		t.Fatalf("snapshot not stored: %+v %v", snap, err)
	}
	// Same figures again: the cache file spares the store.
	if _, err := os.Stat(filepath.Join(home, "state", "rate-limits")); err != nil {
		t.Errorf("cache file: %v", err)
	}
	out.Reset()
	Run(strings.NewReader(`{"model":{"display_name":"Opus"}}`), &out, Live(Options{Columns: 200, Now: testenv.Now, StoreBudget: time.Minute}))
	if strings.Contains(out.String(), "5h") {
		t.Errorf("API-key payload shows a pace segment: %q", out.String())
	}
}
