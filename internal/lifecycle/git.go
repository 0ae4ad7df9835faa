package lifecycle

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/reqenv"
)

// GitTimeout bounds every git call warden makes from a hook: a hook must
// never hang on a slow or locked repository.
const GitTimeout = time.Second

// GitInfo is what warden reads from a working tree.
type GitInfo struct {
	// Branch is the current branch ("" outside a repository; the short
	// commit when HEAD is detached).
	Branch string
	// Uncommitted counts changed, staged and untracked paths (an untracked
	// directory counts once, as `git status` shows it).
	Uncommitted int
	// Files are the changed paths, relative to the repository root (paths
	// only, never content).
	Files []string
	// InRepo is false outside a git working tree or when git failed.
	InRepo bool
}

// Git reads branch and changed paths of dir with one `git status` call,
// bounded by GitTimeout (and ctx). Outside a repository, or when git is
// missing or too slow, it returns a zero GitInfo.
func Git(ctx context.Context, dir string) GitInfo {
	if dir == "" {
		return GitInfo{}
	}
	ctx, cancel := context.WithTimeout(ctx, GitTimeout)
	defer cancel()
	// The caller's git: its PATH, environment and directory (reqenv), so
	// the resident server runs what the hook's own process would.
	cmd := reqenv.From(ctx).Command(ctx, "git", []string{"-C", dir, "status", "--porcelain=v1", "--branch", "-z",
		"--untracked-files=normal", "--ignore-submodules=dirty"}, "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
	cmd.WaitDelay = 100 * time.Millisecond
	out, err := cmd.Output()
	if err != nil {
		return GitInfo{}
	}
	return parseStatus(ctx, dir, out)
}

// parseStatus reads `git status --porcelain=v1 --branch -z`.
func parseStatus(ctx context.Context, dir string, out []byte) GitInfo {
	info := GitInfo{InRepo: true}
	recs := bytes.Split(out, []byte{0})
	for i := 0; i < len(recs); i++ {
		r := string(recs[i])
		if r == "" {
			continue
		}
		if strings.HasPrefix(r, "## ") {
			info.Branch = branchFromHeader(strings.TrimPrefix(r, "## "))
			if info.Branch == "HEAD" && ctx != nil {
				info.Branch = shortHead(ctx, dir)
			}
			continue
		}
		if len(r) < 4 {
			continue
		}
		xy, path := r[:2], r[3:]
		if xy[0] == 'R' || xy[0] == 'C' {
			i++ // the original path of a rename or copy follows
		}
		if isWardenPath(path) {
			continue // warden's own state is not the user's change
		}
		info.Files = append(info.Files, path)
		info.Uncommitted++
	}
	return info
}

func isWardenPath(p string) bool {
	return strings.HasPrefix(p, ".warden/") || p == ".warden" || strings.Contains(p, "/.warden/")
}

func branchFromHeader(h string) string {
	switch {
	case strings.HasPrefix(h, "No commits yet on "):
		return strings.TrimPrefix(h, "No commits yet on ")
	case strings.HasPrefix(h, "Initial commit on "):
		return strings.TrimPrefix(h, "Initial commit on ")
	case strings.HasPrefix(h, "HEAD (no branch)"):
		return "HEAD"
	}
	if b, _, ok := strings.Cut(h, "..."); ok {
		return b
	}
	if b, _, ok := strings.Cut(h, " "); ok {
		return b
	}
	return h
}

func shortHead(ctx context.Context, dir string) string {
	cmd := reqenv.From(ctx).Command(ctx, "git", []string{"-C", dir, "rev-parse", "--short", "HEAD"})
	cmd.WaitDelay = 100 * time.Millisecond
	out, err := cmd.Output()
	if err != nil {
		return "HEAD"
	}
	return strings.TrimSpace(string(out))
}

// BranchFast returns the branch of the repository containing dir by
// reading .git/HEAD directly: no process, a handful of syscalls. It is what
// the status line uses on every render. "" when dir is not in a repository.
func BranchFast(dir string) string {
	if dir == "" {
		return ""
	}
	dir = filepath.Clean(dir)
	for i := 0; i < 64; i++ {
		gitPath := filepath.Join(dir, ".git")
		if fi, err := os.Stat(gitPath); err == nil {
			gitDir := gitPath
			if !fi.IsDir() {
				// A worktree or submodule: "gitdir: <path>".
				b, err := os.ReadFile(gitPath)
				if err != nil {
					return ""
				}
				line := strings.TrimSpace(string(b))
				if !strings.HasPrefix(line, "gitdir:") {
					return ""
				}
				gitDir = strings.TrimSpace(strings.TrimPrefix(line, "gitdir:"))
				if !filepath.IsAbs(gitDir) {
					gitDir = filepath.Join(dir, gitDir)
				}
			}
			return headBranch(filepath.Join(gitDir, "HEAD"))
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
	return ""
}

func headBranch(head string) string {
	f, err := os.Open(head)
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, 512)
	n, _ := f.Read(buf)
	s := strings.TrimSpace(string(buf[:n]))
	if ref, ok := strings.CutPrefix(s, "ref:"); ok {
		ref = strings.TrimSpace(ref)
		return strings.TrimPrefix(ref, "refs/heads/")
	}
	if len(s) >= 7 {
		return s[:7]
	}
	return ""
}
