package policy

import (
	"os"
	"path/filepath"
	"strings"
)

// headBranch names the branch checked out in the work tree holding dir by
// reading git's HEAD file, without running git: a push rule asks the
// branch of every bare `git push`, and a git process costs milliseconds
// where two small reads cost microseconds. It walks up from dir to the
// first .git: a directory (a clone) holds HEAD; a file (a linked
// worktree, a submodule) says "gitdir: PATH" and PATH holds HEAD. HEAD is
// "ref: refs/heads/NAME" on a branch (NAME) or a commit id when detached
// ("HEAD", as git rev-parse --abbrev-ref answers). ok is false when no
// .git was found or it could not be read: the caller then asks git.
func headBranch(dir string) (branch string, ok bool) {
	if dir == "" || !filepath.IsAbs(dir) {
		return "", false
	}
	for d := filepath.Clean(dir); ; {
		dotgit := filepath.Join(d, ".git")
		if st, err := os.Stat(dotgit); err == nil {
			gitdir := dotgit
			if !st.IsDir() {
				b, err := os.ReadFile(dotgit)
				if err != nil {
					return "", false
				}
				p, found := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
				if !found {
					return "", false
				}
				gitdir = strings.TrimSpace(p)
				if !filepath.IsAbs(gitdir) {
					gitdir = filepath.Join(d, gitdir)
				}
			}
			return readHead(filepath.Join(gitdir, "HEAD"))
		}
		up := filepath.Dir(d)
		if up == d {
			return "", false
		}
		d = up
	}
}

// readHead reads a HEAD file: the branch it points at, "HEAD" when it
// holds a commit id (detached).
func readHead(file string) (string, bool) {
	b, err := os.ReadFile(file)
	if err != nil || len(b) > 4096 {
		return "", false
	}
	s := strings.TrimSpace(string(b))
	if ref, found := strings.CutPrefix(s, "ref:"); found {
		ref = strings.TrimSpace(ref)
		if name, heads := strings.CutPrefix(ref, "refs/heads/"); heads && name != "" {
			return name, true
		}
		return "", false
	}
	if len(s) >= 40 && strings.Trim(s, "0123456789abcdef") == "" {
		return "HEAD", true
	}
	return "", false
}
