package replay_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/policy/corpus"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/testenv"
)

// fixture is a store file holding n recorded tool calls, as hooks record
// them with record.tool_inputs on: the corpus's risky commands and
// look-alikes, Writes and Reads in turn, in two sessions of a project.
type fixture struct {
	db, home, project string
	calls             []recordedCall
}

type recordedCall struct {
	tool  string
	input json.RawMessage
}

func newFixture(t testing.TB, n int) *fixture {
	t.Helper()
	dir := t.TempDir()
	fx := &fixture{db: filepath.Join(dir, "warden.db"), home: "/home/dev", project: "/home/dev/proj"}
	cases, err := corpus.Load()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, fx.db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	start := testenv.Now().Add(-time.Duration(n+10) * time.Second)
	for i := 0; i < n; i++ {
		var c recordedCall
		switch i % 10 {
		case 8:
			c.tool = "Write"
			c.input, _ = json.Marshal(map[string]string{"file_path": fmt.Sprintf("%s/pkg/f%d.go", fx.project, i), "content": "package pkg\n"})
		case 9:
			c.tool = "Read"
			c.input, _ = json.Marshal(map[string]string{"file_path": fx.project + "/docs/plans/q3.md"})
		default:
			c.tool = "Bash"
			c.input, _ = json.Marshal(map[string]string{"command": cases[i%len(cases)].Command})
		}
		fx.calls = append(fx.calls, c)
		raw, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "tool_name": c.tool, "tool_input": c.input, "cwd": fx.project})
		ev := &store.Event{Time: start.Add(time.Duration(i) * time.Second), SessionID: fmt.Sprintf("sess-%d", i%2),
			Event: "PreToolUse", Harness: "claude", Tool: c.tool, Cwd: fx.project, Decision: "allow", Raw: raw}
		if err := st.RecordHook(ctx, ev, nil); err != nil {
			t.Fatal(err)
		}
	}
	return fx
}

func (fx *fixture) events(t testing.TB) []store.Event {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, fx.db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	evs, err := st.Events(ctx, store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

func writeFile(t testing.TB, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
