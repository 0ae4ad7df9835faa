package handlers

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/pipeline"
	"github.com/warden-dev/warden/internal/session"
)

// keyLifecycle holds what the lifecycle handlers remember between hooks:
// the files recent tool calls touched (paths only) and the current task.
const keyLifecycle = "lifecycle"

// maxRecentFiles bounds the list kept in the session state.
const maxRecentFiles = 20

type lifecycleState struct {
	RecentFiles []string `json:"recent_files,omitempty"`
	Task        string   `json:"task,omitempty"`
}

func loadLifecycle(s *session.State) lifecycleState {
	var ls lifecycleState
	s.Get(keyLifecycle, &ls)
	return ls
}

// PostToolUse: remember the paths file tools touched and the task in
// progress from TodoWrite, for last-session.json and PreCompact. No I/O.
func lifecycleTrackHandler() pipeline.Handler {
	return pipeline.Handler{
		Name:     "lifecycle-track",
		Events:   []event.Name{event.PostToolUse},
		AlwaysOn: true,
		Run: func(_ context.Context, c *pipeline.Call) (event.Decision, error) {
			ls := loadLifecycle(c.State)
			changed := false
			switch c.Input.ToolName {
			case "Write", "Edit", "MultiEdit", "Read", "NotebookEdit":
				p := c.Input.ToolString("file_path")
				if p == "" {
					p = c.Input.ToolString("notebook_path")
				}
				if p != "" {
					ls.RecentFiles = pushRecent(ls.RecentFiles, relToProject(c.ProjectDir, p))
					changed = true
				}
			case "TodoWrite":
				var in struct {
					Todos []struct {
						Content string `json:"content"`
						Status  string `json:"status"`
					} `json:"todos"`
				}
				if json.Unmarshal(c.Input.ToolInput, &in) == nil {
					ls.Task = ""
					for _, t := range in.Todos {
						if t.Status == "in_progress" {
							ls.Task = t.Content
							break
						}
					}
					changed = true
				}
			}
			if !changed {
				return event.Decision{}, nil
			}
			return event.Decision{}, c.State.Put(keyLifecycle, ls)
		},
	}
}

// pushRecent moves p to the end of list (most recent last), bounded.
func pushRecent(list []string, p string) []string {
	out := make([]string, 0, len(list)+1)
	for _, x := range list {
		if x != p {
			out = append(out, x)
		}
	}
	out = append(out, p)
	if len(out) > maxRecentFiles {
		out = out[len(out)-maxRecentFiles:]
	}
	return out
}

func relToProject(project, p string) string {
	if project == "" || !filepath.IsAbs(p) {
		return p
	}
	if r, err := filepath.Rel(project, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}
