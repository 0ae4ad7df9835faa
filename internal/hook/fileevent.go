package hook

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/store"
)

// fileHashCap bounds what the record hashes: a file tool's target larger
// than this gets no hash, so a hook never reads a big file (the record runs
// after the output, but still inside the event's budget).
const fileHashCap = 1 << 20

// fileTools are the tools whose events carry file details.
var fileTools = map[string]bool{"Write": true, "Edit": true, "MultiEdit": true, "NotebookEdit": true}

// addFileDetails fills a file tool's event row: at PreToolUse the hash of
// the file before the change; at PostToolUse the hash after it, the hash
// before from Claude Code's originalFile, and the lines added and removed
// from its structuredPatch (else from the tool input).
func addFileDetails(ev *store.Event, name event.Name, in *event.Input) {
	if !fileTools[in.ToolName] || ev.Path == "" || (name != event.PreToolUse && name != event.PostToolUse) {
		return
	}
	path := ev.Path
	if !filepath.IsAbs(path) && in.Cwd != "" {
		path = filepath.Join(in.Cwd, path)
	}
	if name == event.PreToolUse {
		ev.HashBefore = hashFile(path)
		return
	}
	ev.HashAfter = hashFile(path)
	var resp struct {
		Type            string  `json:"type"`
		OriginalFile    *string `json:"originalFile"`
		StructuredPatch []struct {
			Lines []string `json:"lines"`
		} `json:"structuredPatch"`
	}
	_ = json.Unmarshal(in.ToolResponse, &resp)
	if resp.OriginalFile != nil && len(*resp.OriginalFile) <= fileHashCap {
		ev.HashBefore = hashBytes([]byte(*resp.OriginalFile))
	}
	var added, removed int64
	switch {
	case len(resp.StructuredPatch) > 0:
		for _, h := range resp.StructuredPatch {
			for _, l := range h.Lines {
				switch {
				case strings.HasPrefix(l, "+"):
					added++
				case strings.HasPrefix(l, "-"):
					removed++
				}
			}
		}
	case resp.Type == "create":
		added = countLines(in.ToolString("content"))
	default:
		var ok bool
		if added, removed, ok = inputChange(in); !ok {
			return
		}
	}
	ev.LinesAdded, ev.LinesRemoved = &added, &removed
}

// inputChange counts the lines an Edit or MultiEdit changes from its input
// alone (when the response has no patch): per edit, the lines of
// old_string and new_string less the lines they share at both ends.
func inputChange(in *event.Input) (added, removed int64, ok bool) {
	var input struct {
		OldString string `json:"old_string"`
		NewString string `json:"new_string"`
		Edits     []struct {
			OldString string `json:"old_string"`
			NewString string `json:"new_string"`
		} `json:"edits"`
	}
	if json.Unmarshal(in.ToolInput, &input) != nil {
		return 0, 0, false
	}
	switch in.ToolName {
	case "Edit":
		a, r := editLines(input.OldString, input.NewString)
		return a, r, true
	case "MultiEdit":
		for _, e := range input.Edits {
			a, r := editLines(e.OldString, e.NewString)
			added, removed = added+a, removed+r
		}
		return added, removed, len(input.Edits) > 0
	}
	return 0, 0, false
}

func editLines(old, new string) (added, removed int64) {
	o, n := splitLines(old), splitLines(new)
	for len(o) > 0 && len(n) > 0 && o[0] == n[0] {
		o, n = o[1:], n[1:]
	}
	for len(o) > 0 && len(n) > 0 && o[len(o)-1] == n[len(n)-1] {
		o, n = o[:len(o)-1], n[:len(n)-1]
	}
	return int64(len(n)), int64(len(o))
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

func countLines(s string) int64 { return int64(len(splitLines(s))) }

// hashFile is the SHA-256 of a regular file of at most fileHashCap bytes;
// "" when it is absent, not regular, larger or unreadable.
func hashFile(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > fileHashCap {
		return ""
	}
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(f, fileHashCap+1))
	if err != nil || n > fileHashCap {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

func hashBytes(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
