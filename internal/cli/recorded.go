package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/warden-dev/warden/internal/helper"
	"github.com/warden-dev/warden/internal/store"
)

// recordedEvents reads recorded events for the commands that evaluate them
// again (replay, policy test --from-history, stats' rollout): from this
// machine's store, or with shared from the shared PostgreSQL store through
// warden-helper (pgx stays out of warden-core). Only reads.
func recordedEvents(ctx context.Context, shared bool, f store.Filter, stderr io.Writer) ([]store.Event, error) {
	if !shared {
		var evs []store.Event
		err := withExistingStore(ctx, func(st store.Local) error {
			var err error
			evs, err = st.Events(ctx, f)
			return err
		})
		return evs, err
	}
	args := []string{"events", "--shared"}
	if !f.Since.IsZero() {
		args = append(args, "--since-us", strconv.FormatInt(f.Since.UnixMicro(), 10))
	}
	if f.SessionID != "" {
		args = append(args, "--session", f.SessionID)
	}
	var out bytes.Buffer
	code, err := helper.Run(args, nil, &out, stderr)
	if err != nil {
		return nil, err
	}
	if code != 0 {
		return nil, ExitError{Code: code}
	}
	var evs []store.Event
	sc := bufio.NewScanner(&out)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var e store.Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("read the shared store's events from warden-helper: %v", err)
		}
		evs = append(evs, e)
	}
	return evs, sc.Err()
}
