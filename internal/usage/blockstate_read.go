package usage

import (
	"bytes"
	"context"
	"errors"
	"io/fs"

	"github.com/warden-dev/warden/internal/store"
)

// An incremental blocks run's reads: the appended bytes of each file, in
// parallel, and the store rows that record how far each file was read.

// cand is an entry read by an incremental run.
type cand struct {
	e     Entry
	model string
	path  string
	ord   int  // position in its file's new entries
	eph   bool // from an unterminated last line: counted, not kept
}

type readJob struct {
	file    File
	sf      *stateFile // nil = new file
	from    int64
	persist bool // the bytes up to the last newline join the state
}

type readResult struct {
	fe      *fileEntries
	tail    int
	off     int64
	print   []byte
	changed bool // the prefix print no longer matches
}

// fileRowUpdates extends the per-file cache rows of appended files with
// the entries read, when a row is where the state left it (else the row
// stays and Load brings it up to date when it next needs it).
func fileRowUpdates(ctx context.Context, st CacheStore, s *blockState, byPath map[string]int, jobs []readJob, results []readResult, appended []string) []store.UsageFile {
	if len(appended) == 0 {
		return nil
	}
	rows, err := st.UsageFilesByPath(ctx, appended)
	if err != nil {
		return nil
	}
	have := make(map[string]store.UsageFile, len(rows))
	for _, r := range rows {
		have[r.Path] = r
	}
	var out []store.UsageFile
	for k, j := range jobs {
		if !j.persist {
			continue
		}
		r := results[k]
		chunk := &fileEntries{Models: r.fe.Models, Entries: r.fe.Entries[:len(r.fe.Entries)-r.tail]}
		var data *fileEntries
		if j.sf == nil {
			if _, ok := have[j.file.Path]; ok {
				continue // a row the state does not know: leave it to Load
			}
			data = chunk
		} else {
			row, ok := have[j.file.Path]
			if !ok || row.Offset != j.sf.Off || !bytes.Equal(row.Prefix, j.sf.Print) {
				continue
			}
			old, err := decodeFileEntries(row.Data)
			if err != nil {
				continue
			}
			data = appendFileEntries(old, chunk)
		}
		out = append(out, store.UsageFile{Path: j.file.Path, Size: j.file.Size, MtimeNs: j.file.MtimeNs, Offset: r.off, Prefix: r.print, Data: encodeFileEntries(data)})
	}
	return out
}

func runReads(ctx context.Context, jobs []readJob, results []readResult, workers int) error {
	newScanner := func() *scanner { return &scanner{buf: make([]byte, 64<<10)} }
	return forEach(ctx, len(jobs), workers, newScanner, func(sc *scanner, n int) error {
		j := jobs[n]
		var verify []byte
		if j.sf != nil && j.persist {
			verify = j.sf.Print
		}
		fe, off, print, changed, err := sc.scanJob(j.file.Path, j.file.Size, job{from: j.from, verify: verify, save: j.persist}, nil)
		if errors.Is(err, fs.ErrNotExist) {
			return errFallback // deleted since Discover
		}
		if err != nil {
			return err
		}
		if k := len(fe.Entries) - sc.tailEntries; k > 0 {
			tail := append([]Entry(nil), fe.Entries[k:]...)
			fe.Entries = append(reduceEntries(fe.Entries[:k]), tail...)
		}
		results[n] = readResult{fe: fe, tail: sc.tailEntries, off: off, print: print, changed: changed}
		return nil
	})
}
