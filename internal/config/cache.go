package config

import (
	"errors"
	"io/fs"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/warden-dev/warden/internal/fileid"
	"github.com/warden-dev/warden/internal/paths"
)

// Load runs for every hook, and a resident server (the keeper, the
// daemon) answers them all: reading and parsing a small config.toml and
// applying it to the registry cost 0.1–0.2 ms against a served hook's
// ~0.6 ms of work. So the outcome is kept per (user file, project
// directory) while both files stay as they were — same device, inode,
// size and modification time, or both still missing — and handed out as
// a copy, so no caller shares a list with another.
//
// A file modified less than racyWindow before it was looked at is not
// kept: an edit within the file system's timestamp granularity could
// leave size and time unchanged (git's "racily clean" problem).
type loadCache struct {
	mu      sync.Mutex
	entries map[loadKey]*loadEntry
}

type loadKey struct{ userFile, projectDir string }

type loadEntry struct {
	user, project fileStamp
	cfg           *Config
	problems      []Problem
}

// fileStamp identifies a file's version; the zero value is "missing".
type fileStamp struct {
	exists bool
	id     string // device and inode
	size   int64
	mtime  int64 // unix nanoseconds
}

const (
	racyWindow       = 2 * time.Second
	maxCachedConfigs = 64 // directories a resident server answers for
)

var loads = &loadCache{entries: map[loadKey]*loadEntry{}}

// load is resolve(keys, …) through the cache.
func (c *loadCache) load(userFile, projectDir string) (*Config, []Problem) {
	user, okU := stampOf(userFile)
	project, okP := fileStamp{}, true
	if projectDir != "" {
		project, okP = stampOf(paths.ProjectConfig(projectDir))
	}
	key := loadKey{userFile, projectDir}
	if okU && okP {
		c.mu.Lock()
		e := c.entries[key]
		c.mu.Unlock()
		if e != nil && e.user == user && e.project == project {
			return e.cfg.clone(), append([]Problem(nil), e.problems...)
		}
	}
	// Looked at before reading: a file changed in between is newer than
	// its stamp, so the next call reads it again.
	r := resolve(keys, userFile, projectDir)
	if okU && okP && settled(user) && settled(project) {
		c.mu.Lock()
		if len(c.entries) >= maxCachedConfigs {
			clear(c.entries)
		}
		c.entries[key] = &loadEntry{user: user, project: project, cfg: r.cfg.clone(), problems: append([]Problem(nil), r.problems...)}
		c.mu.Unlock()
	}
	return r.cfg, r.problems
}

// stampOf stats path; ok is false when it cannot tell (then nothing is
// cached: the file is read every time, as before).
func stampOf(path string) (fileStamp, bool) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return fileStamp{}, true
	}
	if err != nil {
		return fileStamp{}, false
	}
	id := fileid.Of(fi)
	if id == "" {
		return fileStamp{}, false // no inode: a replaced file could look the same
	}
	return fileStamp{exists: true, id: id, size: fi.Size(), mtime: fi.ModTime().UnixNano()}, true
}

// settled: a missing file, or one not modified within racyWindow.
func settled(s fileStamp) bool {
	return !s.exists || time.Since(time.Unix(0, s.mtime)) > racyWindow
}

// clone is a copy of c sharing no list with it: every []string field is a
// registry key (TestCloneSharesNoList checks). Each list is copied through
// its field's pointer, as setField copies one: going through getField
// boxed every list in an interface, ~25 allocations per served hook,
// empty lists included.
func (c *Config) clone() *Config {
	out := *c
	for i := range keys {
		if keys[i].Kind != Strings {
			continue
		}
		p := keys[i].Field(&out).(*[]string)
		*p = append(make([]string, 0, len(*p)), *p...)
	}
	return &out
}
