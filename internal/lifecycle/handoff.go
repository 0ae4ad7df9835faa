package lifecycle

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/redact"
)

// Handoff file names. Session handoffs are handoff-YYYYMMDD-HHMMSS.md and
// agent handoffs agent-<task>-YYYYMMDD-HHMMSS.md: neither prefix can match
// the other's glob.
const (
	SessionGlob = "handoff-*.md"
	AgentGlob   = "agent-*.md"
	stampLayout = "20060102-150405"
)

// SessionHandoff is what `warden handoff auto` writes.
type SessionHandoff struct {
	Project    string
	SessionID  string
	Transcript string
	Percent    int // context use that triggered it; 0 if unknown
	Now        time.Time
}

// WriteSessionHandoff writes .warden/handoffs/handoff-<stamp>.md from the
// transcript and git, and registers it as the project's pending resume.
// Prompts and messages are passed through secret redaction; file contents
// and diffs are never included.
func WriteSessionHandoff(ctx context.Context, h SessionHandoff) (string, error) {
	if h.Project == "" {
		return "", errors.New("no project directory")
	}
	if h.Now.IsZero() {
		h.Now = time.Now()
	}
	var d Digest
	if h.Transcript != "" {
		d, _ = ReadDigest(h.Transcript) // a missing transcript still gives a handoff
	}
	g := Git(ctx, h.Project)

	var b strings.Builder
	fmt.Fprintf(&b, "# Session handoff\n\n")
	fmt.Fprintf(&b, "- Session: %s\n- Written: %s\n", orNone(h.SessionID), Timestamp(h.Now))
	if h.Percent > 0 {
		fmt.Fprintf(&b, "- Context used: %d%%\n", h.Percent)
	}
	fmt.Fprintf(&b, "- Branch: %s\n- Uncommitted changes: %d\n\n", orNone(g.Branch), g.Uncommitted)
	fmt.Fprintf(&b, "## Goal\n\n%s\n\n", quote(orNone(clean(d.FirstPrompt, 1500))))
	b.WriteString("## Recent prompts\n\n")
	if len(d.Prompts) == 0 {
		b.WriteString("(none)\n")
	}
	for _, p := range d.Prompts {
		fmt.Fprintf(&b, "- %s\n", oneLine(clean(p, 400)))
	}
	b.WriteString("\n## Changed files\n\n")
	if len(g.Files) == 0 {
		b.WriteString("(none)\n")
	}
	for i, f := range g.Files {
		if i == 50 {
			fmt.Fprintf(&b, "- … and %d more\n", len(g.Files)-50)
			break
		}
		fmt.Fprintf(&b, "- %s\n", f)
	}
	b.WriteString("\n## Open todos\n\n")
	open := 0
	for _, t := range d.Todos {
		if t.Status == "completed" {
			continue
		}
		open++
		fmt.Fprintf(&b, "- [%s] %s\n", t.Status, oneLine(clean(t.Content, 300)))
	}
	if open == 0 {
		b.WriteString("(none)\n")
	}
	fmt.Fprintf(&b, "\n## Last assistant message\n\n%s\n", quote(orNone(clean(d.LastAssistant, 2000))))

	path, err := createUnique(HandoffDir(h.Project), "handoff-", h.Now, []byte(b.String()))
	if err != nil {
		return "", err
	}
	if err := RegisterResume(h.Project, path, h.SessionID, h.Now); err != nil {
		return path, err
	}
	return path, nil
}

func clean(s string, n int) string { return clipText(redact.String(strings.TrimSpace(s)), n) }

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func quote(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight("> "+l, " ")
	}
	return strings.Join(lines, "\n")
}

// createUnique writes data to dir/<prefix><stamp>.md, or <stamp>-2, -3 …
// when that name is taken, atomically (temp file + link, which fails
// rather than overwrite).
func createUnique(dir, prefix string, now time.Time, data []byte) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	f, err := os.CreateTemp(dir, ".tmp-handoff-*")
	if err != nil {
		return "", err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if _, err := f.Write(data); err != nil {
		f.Close()
		return "", err
	}
	f.Chmod(0o644)
	f.Sync()
	if err := f.Close(); err != nil {
		return "", err
	}
	stamp := now.UTC().Format(stampLayout)
	for i := 1; i < 1000; i++ {
		name := prefix + stamp + ".md"
		if i > 1 {
			name = fmt.Sprintf("%s%s-%d.md", prefix, stamp, i)
		}
		p := filepath.Join(dir, name)
		err := os.Link(tmp, p)
		if err == nil {
			return p, nil
		}
		if !errors.Is(err, os.ErrExist) {
			// No hard links (some filesystems): exclusive create instead.
			g, err2 := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			if errors.Is(err2, os.ErrExist) {
				continue
			}
			if err2 != nil {
				return "", err
			}
			_, werr := g.Write(data)
			cerr := g.Close()
			return p, errors.Join(werr, cerr)
		}
	}
	return "", fmt.Errorf("no free handoff name in %s", dir)
}
