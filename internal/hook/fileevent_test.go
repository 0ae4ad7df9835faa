package hook

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite/sqlitetest"
)

func sum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// File tools' events carry the path, the content hashes before and after
// and the lines added and removed; every tool event carries duration_ms.
func TestFileEventsCarryHashesLinesAndDuration(t *testing.T) {
	home, proj := env(t)
	file := filepath.Join(proj, "main.go")
	before, after := "a\nb\nc\n", "a\nB\nc\nd\n"
	os.WriteFile(file, []byte(before), 0o644)
	hook := func(ev, fields string) {
		t.Helper()
		if _, errs, code := runHook(t, strings.NewReader(payload(ev, fields))); code != 0 || errs != "" {
			t.Fatalf("%s: code %d, %q", ev, code, errs)
		}
	}
	edit := `"tool_name":"Edit","tool_use_id":"t1","tool_input":{"file_path":` + q(file) + `,"old_string":"b","new_string":"B\nc\nd"}`
	hook("PreToolUse", edit)
	os.WriteFile(file, []byte(after), 0o644) // what the Edit does
	resp := map[string]any{"filePath": file, "originalFile": before,
		"structuredPatch": []map[string]any{{"oldStart": 1, "lines": []string{" a", "-b", "+B", " c", "+d"}}}}
	hook("PostToolUse", edit+`,"duration_ms":42,"tool_response":`+js(resp))

	created := filepath.Join(proj, "new.txt")
	os.WriteFile(created, []byte("1\n2\n3\n"), 0o644)
	hook("PostToolUse", `"tool_name":"Write","tool_use_id":"t2","tool_input":{"file_path":`+q(created)+`,"content":"1\n2\n3\n"},`+
		`"tool_response":{"type":"create","filePath":`+q(created)+`,"content":"1\n2\n3\n","structuredPatch":[],"originalFile":null}`)
	// No patch in the response: counted from the input, shared lines aside.
	hook("PostToolUse", `"tool_name":"Edit","tool_use_id":"t3","tool_input":{"file_path":`+q(file)+`,"old_string":"x\ny\nz","new_string":"x\nY\nY2\nz"},"tool_response":{}`)
	big := filepath.Join(proj, "big.bin")
	os.WriteFile(big, make([]byte, fileHashCap+1), 0o644)
	hook("PreToolUse", `"tool_name":"Write","tool_use_id":"t4","tool_input":{"file_path":`+q(big)+`,"content":"x"}`)
	hook("PostToolUse", `"tool_name":"Bash","tool_use_id":"t5","tool_input":{"command":"ls"},"duration_ms":7,"tool_response":{"stdout":""}`)

	evs := events(t, home)
	if len(evs) != 6 {
		t.Fatalf("%d events, want 6", len(evs))
	}
	pre, post, create, fallback, bigPre, bash := evs[0], evs[1], evs[2], evs[3], evs[4], evs[5]
	if pre.Path != file || pre.HashBefore != sum(before) || pre.HashAfter != "" || pre.LinesAdded != nil {
		t.Errorf("PreToolUse Edit: %+v", pre)
	}
	if post.HashBefore != sum(before) || post.HashAfter != sum(after) || n(post.LinesAdded) != 2 || n(post.LinesRemoved) != 1 ||
		post.DurationMS == nil || *post.DurationMS != 42 {
		t.Errorf("PostToolUse Edit: before %s after %s +%d -%d dur %v", post.HashBefore, post.HashAfter, n(post.LinesAdded), n(post.LinesRemoved), post.DurationMS)
	}
	if create.HashBefore != "" || create.HashAfter != sum("1\n2\n3\n") || n(create.LinesAdded) != 3 || n(create.LinesRemoved) != 0 {
		t.Errorf("Write create: %+v", create)
	}
	if n(fallback.LinesAdded) != 2 || n(fallback.LinesRemoved) != 1 {
		t.Errorf("Edit without a patch: +%d -%d, want +2 -1", n(fallback.LinesAdded), n(fallback.LinesRemoved))
	}
	if bigPre.HashBefore != "" || bigPre.Path != big {
		t.Errorf("a file over the cap must not be hashed: %+v", bigPre)
	}
	if bash.HashBefore != "" || bash.HashAfter != "" || bash.LinesAdded != nil || bash.DurationMS == nil || *bash.DurationMS != 7 {
		t.Errorf("Bash: %+v", bash)
	}
	st := sqlitetest.Store(t, filepath.Join(home, "warden.db"))
	if n, brk, err := st.VerifyChain(context.Background()); err != nil || brk != nil || n != 6 {
		t.Errorf("audit chain over the new fields: %d rows, break %+v, %v", n, brk, err)
	}
	// The hashes are in the chain: changing one breaks it.
	sqlitetest.Exec(t, st.Path(), "UPDATE events SET hash_after = ? WHERE id = ?", sum("forged"), post.ID)
	if _, brk, _ := st.VerifyChain(context.Background()); brk == nil || brk.ID != post.ID {
		t.Errorf("a changed hash_after was not detected: %+v", brk)
	}
}

func n(p *int64) int64 {
	if p == nil {
		return -1
	}
	return *p
}

func q(s string) string { b, _ := json.Marshal(s); return string(b) }

func js(v any) string { b, _ := json.Marshal(v); return string(b) }

// BenchmarkFileDetails is what a file tool's PostToolUse adds to the
// record: hashing the file (64 KiB here; nothing over fileHashCap) and the
// originalFile, and counting the patch's lines. Compare with
// BenchmarkHookInProcess for the whole hook.
func BenchmarkFileDetails(b *testing.B) {
	dir := b.TempDir()
	file := filepath.Join(dir, "f.go")
	content := strings.Repeat("line of source code, about sixty bytes long....\n", 1365)
	os.WriteFile(file, []byte(content), 0o644)
	resp := js(map[string]any{"originalFile": content, "structuredPatch": []map[string]any{{"lines": []string{" a", "-b", "+B"}}}})
	in := &event.Input{ToolName: "Edit", Cwd: dir, ToolInput: json.RawMessage(`{"file_path":` + q(file) + `}`), ToolResponse: json.RawMessage(resp)}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		ev := &store.Event{Path: file}
		addFileDetails(ev, event.PostToolUse, in)
		if ev.HashAfter == "" || ev.LinesAdded == nil {
			b.Fatal("no details")
		}
	}
}
