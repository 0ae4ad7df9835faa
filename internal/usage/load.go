package usage

import (
	"context"
	"errors"
	"io/fs"
	"sort"
	"sync"
	"sync/atomic"
)

// CachedFile is the cache's record of one file.
type CachedFile struct {
	Path    string
	Size    int64
	MtimeNs int64
	Offset  int64  // bytes parsed (end of the last complete line)
	Prefix  []byte // PrefixPrint of the first Offset bytes; empty = unknown
	Data    []byte
}

// Cache stores parsed entries per file so a later run reads only what was
// appended.
type Cache interface {
	LoadUsageCache(ctx context.Context) (map[string]CachedFile, error)
	SaveUsageCache(ctx context.Context, upd []CachedFile, remove []string) error
}

// Options for Load.
type Options struct {
	Dirs     []string // config dirs; nil = ConfigDirs()
	Files    []File   // the files, when already discovered (Dirs is then ignored)
	Cache    Cache    // nil = no cache
	Workers  int      // 0 = GOMAXPROCS
	Progress func(done, total int64)
}

// Data is every counted entry, duplicates resolved, sorted by time.
type Data struct {
	Files   []File
	Models  []string
	Entries []Entry
	Stats   Stats
}

// Stats says what a load read.
type Stats struct {
	Files, FilesParsed int
	BytesRead          int64
	Lines              int64 // parsed entries before dedupe
	Reparsed           int   // files whose cached prefix no longer matched (rewritten) and were read again in full
	Incremental        bool  // LoadBlocks: answered from the blocks state without reading every file's entries
	Snapshot           bool  // LoadBlocks: answered from the snapshot of an unchanged tree
}

type job struct {
	idx    int
	from   int64
	cached *fileEntries // entries already known before from
	verify []byte       // expected PrefixPrint of the first from bytes; nil = trusted
	save   bool
}

// loaded is what loadFiles read: per file, the entries (the last tails[i]
// of them from an unterminated last line, which the cache does not keep),
// the offset and prefix print the entries before the tail cover.
type loaded struct {
	files   []File
	results []*fileEntries
	tails   []int
	offs    []int64
	prints  [][]byte
	updates []CachedFile
	remove  []string
	stats   Stats
}

// Load reads the transcripts (through the cache when given).
func Load(ctx context.Context, opt Options) (*Data, error) {
	l, err := loadFiles(ctx, opt)
	if err != nil {
		return nil, err
	}
	if opt.Cache != nil && (len(l.updates) > 0 || len(l.remove) > 0) {
		_ = opt.Cache.SaveUsageCache(ctx, l.updates, l.remove) // a cache that cannot be written is only slower
	}
	d := merge(l.files, l.results)
	d.Stats = l.stats
	return d, nil
}

func loadFiles(ctx context.Context, opt Options) (*loaded, error) {
	dirs := opt.Dirs
	if dirs == nil {
		dirs = ConfigDirs()
	}
	files := opt.Files
	if files == nil {
		var err error
		if files, err = Discover(dirs); err != nil {
			return nil, err
		}
	}
	var err error
	var cached map[string]CachedFile
	if opt.Cache != nil {
		if cached, err = opt.Cache.LoadUsageCache(ctx); err != nil {
			cached = nil // a broken cache is only slower
		}
	}
	present := make(map[string]bool, len(files))
	for _, f := range files {
		present[f.Path] = true
	}
	// Rows of paths that are gone: a file with the same mtime may be one of
	// them renamed (its entries do not depend on its path).
	gone := map[int64][]string{}
	for p, c := range cached {
		if !present[p] {
			gone[c.MtimeNs] = append(gone[c.MtimeNs], p)
		}
	}
	l := &loaded{files: files, results: make([]*fileEntries, len(files)), tails: make([]int, len(files)),
		offs: make([]int64, len(files)), prints: make([][]byte, len(files))}
	cachedFor := make([]CachedFile, len(files))
	hasCache := make([]bool, len(files))
	for i, f := range files {
		if c, ok := cached[f.Path]; ok {
			cachedFor[i], hasCache[i] = c, true
			continue
		}
		for k, p := range gone[f.MtimeNs] {
			if c := cached[p]; c.Offset <= f.Size && len(c.Prefix) > 0 {
				cachedFor[i], hasCache[i] = c, true
				gone[f.MtimeNs] = append(gone[f.MtimeNs][:k:k], gone[f.MtimeNs][k+1:]...)
				break
			}
		}
	}
	decoded := decodeAll(cachedFor, hasCache, opt.Workers)
	var jobs []job
	var total int64
	for i, f := range files {
		if fe := decoded[i]; fe != nil {
			c := cachedFor[i]
			if c.Path == f.Path && c.Size == f.Size && c.MtimeNs == f.MtimeNs && c.Offset <= f.Size {
				l.results[i], l.offs[i], l.prints[i] = fe, c.Offset, c.Prefix
				if c.Offset < f.Size { // unterminated last line: read it, do not cache it
					jobs = append(jobs, job{idx: i, from: c.Offset, cached: fe})
					total += f.Size - c.Offset
				}
				continue
			}
			// Grown, touched, partly rewritten or renamed: the cached
			// entries stand if the prefix they came from is unchanged.
			if c.Offset <= f.Size && len(c.Prefix) > 0 {
				jobs = append(jobs, job{idx: i, from: c.Offset, cached: fe, verify: c.Prefix, save: opt.Cache != nil})
				total += f.Size - c.Offset
				continue
			}
		}
		jobs = append(jobs, job{idx: i, save: opt.Cache != nil})
		total += f.Size
	}
	// Largest first so one big file does not finish last.
	sort.SliceStable(jobs, func(a, b int) bool {
		return files[jobs[a].idx].Size-jobs[a].from > files[jobs[b].idx].Size-jobs[b].from
	})
	var (
		done atomic.Int64
		mu   sync.Mutex
	)
	err = forEach(ctx, len(jobs), opt.Workers, newScanner, func(sc *scanner, n int) error {
		j := jobs[n]
		f := files[j.idx]
		fe, off, print, reparsed, err := sc.scanJob(f.Path, f.Size, j, func(b int64) {
			if opt.Progress != nil {
				opt.Progress(done.Add(b), total)
			}
		})
		if errors.Is(err, fs.ErrNotExist) {
			return nil // deleted since Discover: not counted
		}
		if err != nil {
			return err
		}
		if reparsed {
			j.cached, j.from = nil, 0
		}
		// Reduce the newline-terminated part only: it is what the
		// cache keeps; an unterminated last line stays as read.
		if n := len(fe.Entries) - sc.tailEntries; n > 0 {
			tail := append([]Entry(nil), fe.Entries[n:]...)
			fe.Entries = append(reduceEntries(fe.Entries[:n]), tail...)
		}
		merged := fe
		if j.cached != nil {
			merged = appendFileEntries(j.cached, fe)
		}
		mu.Lock()
		defer mu.Unlock()
		l.stats.FilesParsed++
		l.stats.BytesRead += f.Size - j.from
		if reparsed {
			l.stats.Reparsed++
		}
		if j.save || reparsed {
			// Only the newline-terminated part is cached.
			keep := &fileEntries{Models: merged.Models, Entries: merged.Entries[:len(merged.Entries)-sc.tailEntries]}
			l.offs[j.idx], l.prints[j.idx] = off, print
			if opt.Cache != nil {
				l.updates = append(l.updates, CachedFile{Path: f.Path, Size: f.Size, MtimeNs: f.MtimeNs, Offset: off, Prefix: print, Data: encodeFileEntries(keep)})
			}
		}
		l.results[j.idx] = merged
		l.tails[j.idx] = sc.tailEntries
		return nil
	})
	if err != nil {
		return nil, err
	}
	for p := range cached {
		if !present[p] {
			l.remove = append(l.remove, p)
		}
	}
	sort.Strings(l.remove)
	l.stats.Files = len(files)
	for _, r := range l.results {
		if r != nil {
			l.stats.Lines += int64(len(r.Entries))
		}
	}
	return l, nil
}

func appendFileEntries(a, b *fileEntries) *fileEntries {
	out := &fileEntries{Models: append([]string(nil), a.Models...), Entries: make([]Entry, 0, len(a.Entries)+len(b.Entries))}
	out.Entries = append(out.Entries, a.Entries...)
	idx := map[string]int32{}
	for i, m := range out.Models {
		idx[m] = int32(i)
	}
	for _, e := range b.Entries {
		if e.Model >= 0 {
			name := b.Models[e.Model]
			k, ok := idx[name]
			if !ok {
				k = int32(len(out.Models))
				out.Models = append(out.Models, name)
				idx[name] = k
			}
			e.Model = k
		}
		out.Entries = append(out.Entries, e)
	}
	return out
}

// merge resolves duplicates across all files (in path order) and sorts the
// winners by time.
func merge(files []File, results []*fileEntries) *Data {
	d, _ := mergeHolding(files, results, nil)
	return d
}
