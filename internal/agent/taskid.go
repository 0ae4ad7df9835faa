package agent

import "fmt"

// CheckTaskID says why id cannot name a task, or nil. A task id is used
// unquoted everywhere it appears: a directory name, the branch
// warden/<id>, a tmux window name (no '.' or ':', which tmux reads as
// target separators) and an environment value.
func CheckTaskID(id string) error {
	ok := len(id) >= 1 && len(id) <= 64
	for i := 0; ok && i < len(id); i++ {
		c := id[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case (c == '-' || c == '_') && i > 0:
		default:
			ok = false
		}
	}
	if !ok {
		return fmt.Errorf("task id %q: use 1-64 letters, digits, '-' or '_', starting with a letter or digit", id)
	}
	return nil
}

// Branch is the git branch of a task's worktree.
func Branch(taskID string) string { return "warden/" + taskID }
