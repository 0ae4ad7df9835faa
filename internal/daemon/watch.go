package daemon

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// watchConfig reloads the config on SIGHUP and when the file changes.
// The change is seen by a stat every interval (size, modification time,
// inode) rather than an inotify watch: editors save by writing a new
// file and renaming it over the old one, which a watch on the file
// loses, and a watch on its directory would wake on every hook, since
// the store's database and WAL live there too. A stat every two seconds
// costs nothing measurable.
func watchConfig(ctx context.Context, l *liveConfig, interval time.Duration) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	last := statKey(l.path)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-hup:
			last = statKey(l.path)
			l.Reload("SIGHUP")
		case <-t.C:
			if k := statKey(l.path); k != last {
				last = k
				l.Reload("config.toml changed")
			}
		}
	}
}

type fileKey struct {
	exists      bool
	size, mtime int64
	ino         uint64
}

func statKey(path string) fileKey {
	fi, err := os.Stat(path)
	if err != nil {
		return fileKey{}
	}
	k := fileKey{exists: true, size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		k.ino = uint64(st.Ino)
	}
	return k
}
