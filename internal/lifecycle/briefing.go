package lifecycle

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// BriefingOptions switches each piece of the SessionStart briefing.
type BriefingOptions struct {
	LastSession bool
	Learn       bool
	Handoff     bool
	PreCompact  bool
	// SessionID and Source are the starting session's id and
	// SessionStart source (startup, resume, clear, compact).
	SessionID string
	Source    string
	Now       time.Time
}

// Briefing builds the one SessionStart briefing for project, or "" when
// nothing applies. It consumes what it reports once: the learn-pending
// flag and the pending resume are cleared.
func Briefing(project string, o BriefingOptions) string {
	if project == "" {
		return ""
	}
	var parts []string
	if o.LastSession && o.Source != "compact" {
		var ls LastSession
		if ReadJSON(filepath.Join(StateDir(project), LastSessionFile), &ls) == nil && ls.EndedAt != "" {
			parts = append(parts, describeLast(ls, o.Now))
		}
	}
	if o.PreCompact && o.Source == "compact" {
		var pc PreCompactState
		if ReadJSON(filepath.Join(StateDir(project), PreCompactFile), &pc) == nil &&
			(pc.SessionID == "" || o.SessionID == "" || pc.SessionID == o.SessionID) {
			parts = append(parts, describePreCompact(pc))
		}
	}
	if o.Learn && LearnPending(project) {
		parts = append(parts, "Learning is pending from the last session: when convenient, run /learn to save "+
			"reusable patterns to memory (never secrets or file contents).")
		_ = ClearLearnPending(project)
	}
	if o.Handoff {
		if r, content, ok := TakeResume(project); ok {
			rel := r.Path
			if rp, err := filepath.Rel(project, r.Path); err == nil && !strings.HasPrefix(rp, "..") {
				rel = rp
			}
			parts = append(parts, fmt.Sprintf("Handoff from the previous session (%s), continue from here:\n\n%s",
				rel, clipText(strings.TrimSpace(content), 6000)))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "warden briefing:\n- " + strings.Join(parts, "\n- ")
}

func describeLast(ls LastSession, now time.Time) string {
	when := ls.EndedAt
	if t, err := time.Parse(time.RFC3339, ls.EndedAt); err == nil && !now.IsZero() {
		when = fmt.Sprintf("%s (%s ago)", t.UTC().Format("2006-01-02 15:04 UTC"), ago(now.Sub(t)))
	}
	s := "Last session ended " + when
	if ls.Branch != "" {
		s += " on branch " + ls.Branch
	}
	switch ls.UncommittedChanges {
	case 0:
		s += ", working tree clean"
	case 1:
		s += ", 1 uncommitted change"
	default:
		s += fmt.Sprintf(", %d uncommitted changes", ls.UncommittedChanges)
	}
	if ls.Phase != "" {
		s += ", phase " + ls.Phase
	}
	if ls.Task != "" {
		s += ", task: " + clipText(ls.Task, 200)
	}
	return s + "."
}

func describePreCompact(pc PreCompactState) string {
	s := "State before compaction"
	if pc.Branch != "" {
		s += ": branch " + pc.Branch + ","
	} else {
		s += ":"
	}
	s += fmt.Sprintf(" %d uncommitted", pc.UncommittedChanges)
	if len(pc.RecentFiles) > 0 {
		files := pc.RecentFiles
		if len(files) > 15 {
			files = files[:15]
		}
		s += "; recent files: " + strings.Join(files, ", ")
	}
	return s + "."
}

func ago(d time.Duration) string {
	switch {
	case d < 0:
		return "just now"
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

// clipText cuts s to n bytes on a rune boundary.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && (s[n]&0xC0) == 0x80 {
		n--
	}
	return s[:n] + "…"
}
