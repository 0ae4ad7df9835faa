package agent

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Uncommitted lists the paths git reports as changed in dir (staged,
// unstaged, untracked; ignored files are not work), relative to dir.
func Uncommitted(ctx context.Context, dir string) ([]string, error) {
	out, err := git(ctx, dir, "status", "--porcelain", "-z", "--untracked-files=all", "--no-renames")
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, rec := range strings.Split(out, "\x00") {
		if len(rec) > 3 {
			paths = append(paths, rec[3:])
		}
	}
	return paths, nil
}

// Archive saves the uncommitted changes of the worktree dir to dst (a
// .tar.gz): every changed or new file as it is now under files/, and
// changes.patch, git's binary diff against HEAD, which also records
// deletions and applies with `git apply`. It writes to a temporary file
// and renames it, so dst is either complete or absent. It returns whether
// there was anything to archive.
func Archive(ctx context.Context, dir, dst string) (bool, error) {
	changed, err := Uncommitted(ctx, dir)
	if err != nil || len(changed) == 0 {
		return false, err
	}
	// Intent-to-add would change the index; a diff of tracked files plus
	// the untracked files themselves is what the archive needs.
	patch, err := git(ctx, dir, "diff", "HEAD", "--binary")
	if err != nil {
		return false, err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return false, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".archive-*")
	if err != nil {
		return false, err
	}
	defer os.Remove(tmp.Name()) // after the rename there is nothing left to remove
	gz := gzip.NewWriter(tmp)
	tw := tar.NewWriter(gz)
	now := time.Now()
	werr := addBytes(tw, "changes.patch", []byte(patch+"\n"), now)
	for _, rel := range changed {
		if werr != nil {
			break
		}
		werr = addFile(tw, dir, rel)
	}
	for _, c := range []io.Closer{tw, gz, tmp} {
		if err := c.Close(); werr == nil {
			werr = err
		}
	}
	if werr != nil {
		return false, fmt.Errorf("archive %s to %s: %w", dir, dst, werr)
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return false, err
	}
	return true, nil
}

func addBytes(tw *tar.Writer, name string, b []byte, mt time.Time) error {
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(b)), ModTime: mt}); err != nil {
		return err
	}
	_, err := io.Copy(tw, bytes.NewReader(b))
	return err
}

// addFile adds dir/rel as files/rel. A path that no longer exists (a
// deletion) is only in the patch; a symlink is stored as a link.
func addFile(tw *tar.Writer, dir, rel string) error {
	p := filepath.Join(dir, rel)
	fi, err := os.Lstat(p)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	link := ""
	if fi.Mode()&os.ModeSymlink != 0 {
		if link, err = os.Readlink(p); err != nil {
			return err
		}
	} else if !fi.Mode().IsRegular() {
		return nil
	}
	h, err := tar.FileInfoHeader(fi, link)
	if err != nil {
		return err
	}
	h.Name = "files/" + filepath.ToSlash(rel)
	if err := tw.WriteHeader(h); err != nil {
		return err
	}
	if link != "" {
		return nil
	}
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(tw, f)
	return err
}
