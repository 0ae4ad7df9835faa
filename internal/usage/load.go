package usage

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// File is one transcript file.
type File struct {
	Path    string
	Project string // first directory under projects/
	Session string // file stem; for <session>/subagents/*.jsonl the session directory
	Size    int64
	MtimeNs int64
}

// ConfigDirs are the Claude Code config directories to read:
// CLAUDE_CONFIG_DIR (comma-separated) when set, else ~/.claude and
// $XDG_CONFIG_HOME/claude (~/.config/claude).
func ConfigDirs() []string {
	var dirs []string
	if v := os.Getenv("CLAUDE_CONFIG_DIR"); strings.TrimSpace(v) != "" {
		for _, d := range strings.Split(v, ",") {
			if d = strings.TrimSpace(d); d != "" {
				dirs = append(dirs, d)
			}
		}
		return dirs
	}
	home, _ := os.UserHomeDir()
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" {
		xdg = filepath.Join(home, ".config")
	}
	return []string{filepath.Join(home, ".claude"), filepath.Join(xdg, "claude")}
}

// Discover lists every *.jsonl under <dir>/projects for each dir, sorted by
// path (the order duplicates are resolved in). Project directories are
// walked in parallel (a stat per file dominates).
func Discover(dirs []string) ([]File, error) { return DiscoverCached(dirs, nil) }

// Entry flags.
const (
	flagKey       = 1 << iota // has a dedupe key (message.id present)
	flagSidechain             // isSidechain
	flagSpeed                 // usage.speed present
	flagFast                  // speed == "fast"
	flagCost                  // costUSD given
)

// Entry is one counted API response.
type Entry struct {
	TS        int64 // unix ms
	K0, K1    uint64
	In, Out   int64
	Cache5m   int64
	Cache1h   int64
	CacheRead int64
	CostUSD   float64
	Reset     int64 // usage-limit reset (unix s), 0 = none
	File      int32 // index into Data.Files
	Model     int32 // index into Data.Models, -1 = none
	Flags     uint8
	priced    bool
	seq       int32 // position in the order Load met the entries (small: entries are many)
	cost      float64
}

// CacheCreation is the cache-write token count.
func (e *Entry) CacheCreation() int64 { return e.Cache5m + e.Cache1h }

// Total is every token of the entry.
func (e *Entry) Total() int64 { return e.In + e.Out + e.Cache5m + e.Cache1h + e.CacheRead }

// Cost is the entry's cost in USD.
func (e *Entry) Cost() float64 { return e.cost }

// fileEntries is one file's parsed lines (before duplicates are resolved):
// the cacheable unit.
type fileEntries struct {
	Models  []string
	Entries []Entry // Model indexes Models
}

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
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var (
		done    atomic.Int64
		next    atomic.Int64
		mu      sync.Mutex
		firstEr error
		wg      sync.WaitGroup
	)
	for w := 0; w < workers && w < len(jobs); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := newScanner()
			for {
				n := int(next.Add(1)) - 1
				if n >= len(jobs) || ctx.Err() != nil {
					return
				}
				j := jobs[n]
				f := files[j.idx]
				fe, off, print, reparsed, err := sc.scanJob(f.Path, f.Size, j, func(b int64) {
					if opt.Progress != nil {
						opt.Progress(done.Add(b), total)
					}
				})
				if err != nil {
					mu.Lock()
					if firstEr == nil && !errors.Is(err, fs.ErrNotExist) {
						firstEr = err
					}
					mu.Unlock()
					continue
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
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if firstEr != nil {
		return nil, firstEr
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

// mergeHolding is merge leaving out the last held[i] entries of file i
// (those of an unterminated last line): they are returned as they would
// enter the merge (file, model and seq set), for withHeld.
func mergeHolding(files []File, results []*fileEntries, held []int) (*Data, []Entry) {
	var out []Entry
	d := &Data{Files: files}
	modelIdx := map[string]int32{}
	n := 0
	for _, r := range results {
		if r != nil {
			n += len(r.Entries)
		}
	}
	// The winners are kept as references into results and copied once,
	// in time order, at the end (entries are large: moving them was a good
	// part of a merge). An entry's seq is its position among all entries.
	type ref struct{ f, i int32 }
	refs := make([]ref, 0, n)
	bases := make([]int32, len(results))
	remaps := make([][]int32, len(results))
	at := newRefTable(n)
	var seq int32
	for fi, r := range results {
		if r == nil {
			continue
		}
		remap := make([]int32, len(r.Models))
		for i, m := range r.Models {
			k, ok := modelIdx[m]
			if !ok {
				k = int32(len(d.Models))
				d.Models = append(d.Models, m)
				modelIdx[m] = k
			}
			remap[i] = k
		}
		remaps[fi], bases[fi] = remap, seq
		keep := len(r.Entries)
		if held != nil {
			keep -= held[fi]
		}
		for i := range r.Entries {
			e := &r.Entries[i]
			if i >= keep {
				c := *e
				c.File, c.seq = int32(fi), seq+int32(i)
				if c.Model >= 0 {
					c.Model = remap[c.Model]
				}
				out = append(out, c)
				continue
			}
			if e.Flags&flagKey == 0 {
				refs = append(refs, ref{int32(fi), int32(i)})
				continue
			}
			h := at.home(e.K0, e.K1)
			for {
				p := at.pos[h]
				if p == 0 {
					at.k0[h], at.pos[h] = e.K0, int32(len(refs))+1
					refs = append(refs, ref{int32(fi), int32(i)})
					break
				}
				if at.k0[h] == e.K0 {
					w := refs[p-1]
					if we := &results[w.f].Entries[w.i]; we.K1 == e.K1 {
						if replaces(e, we) {
							refs[p-1] = ref{int32(fi), int32(i)}
						}
						break
					}
				}
				h = (h + 1) & at.mask
			}
		}
		seq += int32(len(r.Entries))
	}
	entries := make([]Entry, len(refs))
	place := func(p int, w ref) {
		e := &entries[p]
		*e = results[w.f].Entries[w.i]
		e.File, e.seq = w.f, bases[w.f]+w.i
		if e.Model >= 0 {
			e.Model = remaps[w.f][e.Model]
		}
	}
	if len(refs) > 0 {
		minTS, maxTS := int64(math.MaxInt64), int64(math.MinInt64)
		for _, w := range refs {
			ts := results[w.f].Entries[w.i].TS
			minTS, maxTS = min(minTS, ts), max(maxTS, ts)
		}
		seqBits := bits.Len32(uint32(seq))
		if tsBits := bits.Len64(uint64(maxTS - minTS)); seqBits+tsBits <= 64 {
			// One key, time above seq: sorted, it says where each winner goes.
			keys := make([]sortKey, len(refs))
			for k, w := range refs {
				keys[k] = sortKey{uint64(results[w.f].Entries[w.i].TS-minTS)<<seqBits | uint64(bases[w.f]+w.i), int32(k)}
			}
			keys = radixSort(keys, make([]sortKey, len(keys)), seqBits+tsBits)
			// Placing and pricing the winners (a gather of large entries)
			// is split across two goroutines: the end of a cold run is
			// short of work for the second core.
			price := d.pricer()
			half := len(keys) / 2
			if len(keys) < 1<<14 {
				half = len(keys)
			}
			var wg sync.WaitGroup
			wg.Go(func() {
				for p := half; p < len(keys); p++ {
					place(p, refs[keys[p].i])
				}
				price(entries[half:])
			})
			for p := range half {
				place(p, refs[keys[p].i])
			}
			price(entries[:half])
			wg.Wait()
			d.Entries = entries
			return d, out
		}
		// Times centuries apart.
		for p, w := range refs {
			place(p, w)
		}
		sortEntries(entries)
	}
	d.Entries = entries
	d.price()
	return d, out
}

// refTable maps dedupe keys to winners during a merge (open addressing:
// the keys are hashes already, and a map of 16-byte keys was a good part
// of a cold run). It keeps each key's first half so most probes need not
// look at the entry.
type refTable struct {
	k0   []uint64
	pos  []int32 // winner index + 1, 0 = empty
	mask uint64
}

func newRefTable(n int) refTable {
	size := 16
	for size < 2*n {
		size <<= 1
	}
	return refTable{k0: make([]uint64, size), pos: make([]int32, size), mask: uint64(size - 1)}
}

func (t refTable) home(k0, k1 uint64) uint64 { return (k0 ^ k1*0x9E3779B97F4A7C15) & t.mask }

// withHeld is the entries of base (from mergeHolding) with the held
// entries added, as merge of every entry would give them (base.Models
// already names the held entries' models): for each key the copy that
// replaces the others wins and of equal copies the first met (lowest seq),
// which does not depend on the order the copies are compared in. The
// result points into base.Entries and held; base's entries are neither
// copied nor sorted again (the held ones are few).
func withHeld(base *Data, held []Entry) []*Entry {
	if len(held) == 0 {
		return entryPtrs(base.Entries)
	}
	type key struct{ a, b uint64 }
	const fromBase = 1 << 30 // at values >= fromBase index base.Entries
	at := map[key]int{}
	for i := range held {
		if held[i].Flags&flagKey != 0 {
			at[key{held[i].K0, held[i].K1}] = -1
		}
	}
	if len(at) > 0 {
		for i := range base.Entries {
			if e := &base.Entries[i]; e.Flags&flagKey != 0 {
				if _, ok := at[key{e.K0, e.K1}]; ok {
					at[key{e.K0, e.K1}] = fromBase + i
				}
			}
		}
	}
	priced := &Data{Models: base.Models, Entries: held}
	priced.price()
	removed := map[int]bool{} // base entries a held one replaced
	alive := make([]bool, len(held))
	for i := range held {
		e := &held[i]
		if e.Flags&flagKey == 0 {
			alive[i] = true
			continue
		}
		k := key{e.K0, e.K1}
		j := at[k]
		var w *Entry
		switch {
		case j >= fromBase:
			w = &base.Entries[j-fromBase]
		case j >= 0:
			w = &held[j]
		}
		if w != nil && !replaces(e, w) && (replaces(w, e) || w.seq < e.seq) {
			continue
		}
		switch {
		case j >= fromBase:
			removed[j-fromBase] = true
		case j >= 0:
			alive[j] = false
		}
		at[k], alive[i] = i, true
	}
	var won []*Entry
	for i := range held {
		if alive[i] {
			won = append(won, &held[i])
		}
	}
	before := func(a, b *Entry) bool { return a.TS < b.TS || (a.TS == b.TS && a.seq < b.seq) }
	slices.SortFunc(won, func(a, b *Entry) int {
		if before(a, b) {
			return -1
		}
		if before(b, a) {
			return 1
		}
		return 0
	})
	out := make([]*Entry, 0, len(base.Entries)-len(removed)+len(won))
	for i := range base.Entries {
		if removed[i] {
			continue
		}
		e := &base.Entries[i]
		for len(won) > 0 && before(won[0], e) {
			out = append(out, won[0])
			won = won[1:]
		}
		out = append(out, e)
	}
	return append(out, won...)
}

// keyTable maps dedupe keys to positions in a slice of entries (an open
// addressing table: the keys are hashes already, and a map of 16-byte
// keys was a good part of a cold run).
type keyTable struct {
	slots []int32 // position + 1, 0 = empty
	mask  uint64
}

func newKeyTable(n int) keyTable {
	size := 16
	for size < 2*n {
		size <<= 1
	}
	return keyTable{slots: make([]int32, size), mask: uint64(size - 1)}
}

// find returns the slot of (k0, k1): holding its position + 1, or empty
// (0) where it goes.
func (t keyTable) find(k0, k1 uint64, entries []Entry) *int32 {
	h := (k0 ^ k1*0x9E3779B97F4A7C15) & t.mask
	for {
		s := &t.slots[h]
		if *s == 0 {
			return s
		}
		if e := &entries[*s-1]; e.K0 == k0 && e.K1 == k1 {
			return s
		}
		h = (h + 1) & t.mask
	}
}

// price sets every entry's cost (each model's price is looked up once).
func (d *Data) price() { d.pricer()(d.Entries) }

// pricer returns the function that sets the cost of entries of d's models
// (safe to call on parts of d.Entries at once).
func (d *Data) pricer() func([]Entry) {
	prices := make([]*Price, len(d.Models))
	for i, m := range d.Models {
		prices[i] = PriceFor(m)
	}
	noModel := PriceFor("")
	return func(es []Entry) { priceEntries(es, d.Models, prices, noModel) }
}

func priceEntries(es []Entry, models []string, prices []*Price, noModel *Price) {
	for i := range es {
		e := &es[i]
		model, p := "", noModel
		if e.Model >= 0 {
			model, p = models[e.Model], prices[e.Model]
		}
		if e.Flags&flagCost != 0 {
			e.cost, e.priced = e.CostUSD, true
		} else {
			e.cost, e.priced = costOf(p, model, e.In, e.Out, e.Cache5m, e.Cache1h, e.CacheRead, e.Flags&flagFast != 0)
		}
	}
}

// sortEntries orders entries by time, then by seq: it sorts small keys
// (a radix sort on both) and moves each entry once (entries are large).
func sortEntries(entries []Entry) {
	if len(entries) < 2 {
		return
	}
	minTS, maxTS := entries[0].TS, entries[0].TS
	var maxSeq int32
	sorted := true
	for i := range entries {
		e := &entries[i]
		minTS, maxTS, maxSeq = min(minTS, e.TS), max(maxTS, e.TS), max(maxSeq, e.seq)
		if i > 0 && (e.TS < entries[i-1].TS || (e.TS == entries[i-1].TS && e.seq < entries[i-1].seq)) {
			sorted = false
		}
	}
	if sorted {
		return
	}
	// One key: time above seq, both as offsets, when they fit in 64 bits
	// (they do unless the times span centuries).
	seqBits := bits.Len32(uint32(maxSeq))
	tsBits := bits.Len64(uint64(maxTS - minTS))
	if seqBits+tsBits > 64 {
		slices.SortStableFunc(entries, func(a, b Entry) int {
			if c := cmp.Compare(a.TS, b.TS); c != 0 {
				return c
			}
			return cmp.Compare(a.seq, b.seq)
		})
		return
	}
	keys := make([]sortKey, len(entries))
	for i := range entries {
		keys[i] = sortKey{uint64(entries[i].TS-minTS)<<seqBits | uint64(uint32(entries[i].seq)), int32(i)}
	}
	keys = radixSort(keys, make([]sortKey, len(keys)), seqBits+tsBits)
	// Apply the permutation in place, cycle by cycle: position p takes
	// the entry at keys[p].i.
	for start := range keys {
		if keys[start].i < 0 {
			continue
		}
		if int(keys[start].i) == start {
			keys[start].i = -1
			continue
		}
		tmp := entries[start]
		p := start
		for {
			src := int(keys[p].i)
			keys[p].i = -1
			if src == start {
				entries[p] = tmp
				break
			}
			entries[p] = entries[src]
			p = src
		}
	}
}

type sortKey struct {
	k uint64
	i int32
}

// radixSort sorts keys by their low width bits (an LSD radix sort, 11 bits
// a pass), using tmp of the same length; it returns the sorted slice
// (keys or tmp).
func radixSort(keys, tmp []sortKey, width int) []sortKey {
	const digit = 11
	var count [1 << digit]int
	for shift := 0; shift < width; shift += digit {
		clear(count[:])
		for _, k := range keys {
			count[(k.k>>shift)&(1<<digit-1)]++
		}
		sum := 0
		for d, c := range count {
			count[d] = sum
			sum += c
		}
		for _, k := range keys {
			d := (k.k >> shift) & (1<<digit - 1)
			tmp[count[d]] = k
			count[d]++
		}
		keys, tmp = tmp, keys
	}
	return keys
}

// bySeq returns es in seq order (the order Load met them: by path, then
// position). seqs are distinct and below the number of parsed lines, so the
// entries are placed rather than sorted.
func bySeq(es []*Entry) []*Entry {
	var top int64 = -1
	for _, e := range es {
		top = max(top, int64(e.seq))
	}
	if top >= int64(4*len(es)+1024) {
		out := slices.Clone(es)
		slices.SortFunc(out, func(a, b *Entry) int { return cmp.Compare(a.seq, b.seq) })
		return out
	}
	slots := make([]*Entry, top+1)
	for _, e := range es {
		slots[e.seq] = e
	}
	out := make([]*Entry, 0, len(es))
	for _, e := range slots {
		if e != nil {
			out = append(out, e)
		}
	}
	return out
}

// replaces: of two copies of one response, a non-sidechain copy beats a
// sidechain copy, then the larger token total wins, then the one with speed.
func replaces(n, old *Entry) bool {
	ns, os := n.Flags&flagSidechain != 0, old.Flags&flagSidechain != 0
	if ns != os {
		return os
	}
	if nt, ot := n.Total(), old.Total(); nt != ot {
		return nt > ot
	}
	return n.Flags&flagSpeed != 0 && old.Flags&flagSpeed == 0
}

// ModelName is the name reports show for an entry ("" = none): fast-mode
// responses get a "-fast" suffix.
func (d *Data) ModelName(e *Entry) string {
	if e.Model < 0 {
		return ""
	}
	m := d.Models[e.Model]
	if m == "<synthetic>" {
		return ""
	}
	if e.Flags&flagFast != 0 {
		return m + "-fast"
	}
	return m
}

// scanner reads files with one reusable buffer.
type scanner struct {
	buf         []byte
	tailEntries int // entries of the last scan that came from an unterminated last line
	// Entries are parsed into these reused slices and copied out at their
	// exact length: appending to a new slice per file grew it by doubling
	// (copies, cleared memory and up to twice the heap a cold run holds).
	ents, splitEnts []Entry
	// The first and the last printSpan bytes of what the last scan from
	// offset 0 parsed (head, tail): the prefix print is made from them
	// instead of reading both ends of the file again.
	head, tail []byte
}

func newScanner() *scanner { return &scanner{buf: make([]byte, 256<<10)} }

// scanJob opens path and parses it from j.from, first checking that the
// bytes before j.from still have the print j.verify (when set); when they
// do not, the file was rewritten and is parsed from the start (reparsed).
// off is the end of the last newline-terminated line (what a later run may
// skip) and print the PrefixPrint of the bytes before it.
func (s *scanner) scanJob(path string, size int64, j job, progress func(int64)) (fe *fileEntries, off int64, print []byte, reparsed bool, err error) {
	f, err := openRaw(path)
	if err != nil {
		return nil, 0, nil, false, err
	}
	defer f.Close()
	from := j.from
	if j.verify != nil {
		p, err := PrefixPrint(f, from)
		if err != nil {
			return nil, 0, nil, false, err
		}
		if !bytes.Equal(p, j.verify) {
			from, reparsed = 0, true
		}
	}
	fe, off, err = s.scanFile(f, from, size, progress)
	if err != nil {
		return nil, 0, nil, false, err
	}
	if j.save || reparsed {
		if from == 0 {
			print = s.print(off)
		} else if print, err = PrefixPrint(f, off); err != nil {
			return nil, 0, nil, false, err
		}
	}
	return fe, off, print, reparsed, nil
}

// PrefixPrint is the fingerprint the cache keeps of a file's first n bytes
// (the part already parsed): a hash of n and of the first and the last 4
// KiB before n (SHA-256, cut to 16 bytes: with the CPU's SHA instructions
// it costs a small part of what a byte-at-a-time hash did on a cold run).
// A file rewritten in place with other content is caught unless both ends
// of its old prefix come back byte for byte.
func PrefixPrint(f io.ReaderAt, n int64) ([]byte, error) {
	var buf [8 + 2*printSpan]byte
	binary.LittleEndian.PutUint64(buf[:8], uint64(n))
	head := min(n, printSpan)
	if _, err := f.ReadAt(buf[8:8+head], 0); err != nil {
		return nil, fmt.Errorf("fingerprint: %w", err)
	}
	used := 8 + head
	if n > printSpan {
		tail := min(n-printSpan, printSpan)
		if _, err := f.ReadAt(buf[used:used+tail], n-tail); err != nil {
			return nil, fmt.Errorf("fingerprint: %w", err)
		}
		used += tail
	}
	sum := sha256.Sum256(buf[:used])
	return sum[:16], nil
}

const printSpan = 4096

// print is PrefixPrint of the first n bytes of the file the last scan
// parsed from offset 0, n the offset it returned (the end of what it
// parsed), from the bytes it kept of both ends.
func (s *scanner) print(n int64) []byte {
	var buf [8 + 2*printSpan]byte
	binary.LittleEndian.PutUint64(buf[:8], uint64(n))
	used := 8 + copy(buf[8:], s.head) // min(n, printSpan) bytes
	if n > printSpan {
		t := int(min(n-printSpan, printSpan))
		used += copy(buf[used:], s.tail[len(s.tail)-t:])
	}
	sum := sha256.Sum256(buf[:used])
	return sum[:16]
}

// keepEnds adds region, the next bytes parsed from offset 0, to the ends
// print keeps.
func (s *scanner) keepEnds(region []byte) {
	if k := printSpan - len(s.head); k > 0 {
		s.head = append(s.head, region[:min(k, len(region))]...)
	}
	if len(region) >= printSpan {
		s.tail = append(s.tail[:0], region[len(region)-printSpan:]...)
		return
	}
	if drop := len(s.tail) + len(region) - printSpan; drop > 0 {
		s.tail = s.tail[:copy(s.tail, s.tail[drop:])]
	}
	s.tail = append(s.tail, region...)
}

// scanFile parses f from byte offset from; size is its size when listed
// (it decides whether the parse is split). off is the end of the last
// newline-terminated line (what a later run may skip).
func (s *scanner) scanFile(f *rawFile, from, size int64, progress func(int64)) (*fileEntries, int64, error) {
	f.off = from
	s.head, s.tail = s.head[:0], s.tail[:0]
	fe := &fileEntries{Entries: s.ents[:0]}
	s.tailEntries = 0
	add := lineAdder(fe)
	// A big file is parsed on two cores: the second half of each region
	// on another goroutine (a tree of a few big files would otherwise keep
	// one core idle while the others are done).
	var split *fileEntries
	if size-from > splitFileSize {
		split = &fileEntries{Entries: s.splitEnts[:0]}
	}
	scan := func(region []byte) {
		if from == 0 {
			s.keepEnds(region)
		}
		if split == nil || len(region) < 2*minSplitRegion {
			scanRegion(region, add)
			return
		}
		mid := len(region) / 2
		mid += bytes.IndexByte(region[mid:], '\n') + 1 // region ends with a newline
		split.Models, split.Entries = split.Models[:0], split.Entries[:0]
		var wg sync.WaitGroup
		wg.Go(func() { scanRegion(region[mid:], lineAdder(split)) })
		scanRegion(region[:mid], add)
		wg.Wait()
		appendEntries(fe, split)
	}
	buf := s.buf
	n := 0 // valid bytes in buf
	off := from
	for {
		r, rerr := f.Read(buf[n:])
		n += r
		if r > 0 && progress != nil {
			progress(int64(r))
		}
		if rerr != nil && rerr != io.EOF {
			return nil, 0, rerr
		}
		// At the listed size the read that would return EOF is saved (a
		// system call per file); a file grown since it was listed reads
		// past it to its end.
		eof := rerr == io.EOF || f.off == size
		last := lastNL(buf[:n])
		if last < 0 && !eof {
			if n == len(buf) { // a line longer than the buffer
				nb := make([]byte, 2*len(buf))
				copy(nb, buf[:n])
				buf = nb
				s.buf = buf
			}
			continue
		}
		scan(buf[:last+1])
		off += int64(last + 1)
		rest := copy(buf, buf[last+1:n])
		n = rest
		if eof {
			if n > 0 {
				before := len(fe.Entries)
				add(buf[:n])
				s.tailEntries = len(fe.Entries) - before
			}
			s.ents = fe.Entries[:0]
			if len(fe.Entries) > 0 {
				fe.Entries = slices.Clone(fe.Entries)
			} else {
				fe.Entries = nil
			}
			if split != nil {
				s.splitEnts = split.Entries[:0]
			}
			return fe, off, nil
		}
	}
}

// Files larger than splitFileSize are parsed on two goroutines, regions of
// at least 2*minSplitRegion bytes split in two (a variable for the tests).
var splitFileSize int64 = 8 << 20

const minSplitRegion = 32 << 10

// lineAdder returns the function that parses a line into fe.
func lineAdder(fe *fileEntries) func([]byte) {
	var raw rawEntry
	return func(line []byte) {
		if !parseLine(line, &raw) {
			return
		}
		e := Entry{TS: raw.TS, In: raw.In, Out: raw.Out, Cache5m: raw.Cache5m, Cache1h: raw.Cache1h,
			CacheRead: raw.CacheRead, CostUSD: raw.CostUSD, Reset: raw.Reset, Model: -1}
		if raw.MsgID != nil {
			e.Flags |= flagKey
			second := raw.ReqID
			if second == nil {
				second = raw.SessID
			}
			e.K0, e.K1 = hashKey(raw.MsgID, second, raw.ReqID == nil)
		}
		if raw.Sidechain {
			e.Flags |= flagSidechain
		}
		if raw.HasSpeed {
			e.Flags |= flagSpeed
		}
		if raw.Fast {
			e.Flags |= flagFast
		}
		if raw.HasCost {
			e.Flags |= flagCost
		}
		if raw.Model != nil {
			e.Model = modelIndex(fe, raw.Model)
		}
		fe.Entries = append(fe.Entries, e)
	}
}

// modelIndex is the index of model in fe.Models, added when missing (a
// file has a handful of models: a scan beats a map).
func modelIndex(fe *fileEntries, model []byte) int32 {
	for k, m := range fe.Models {
		if string(model) == m {
			return int32(k)
		}
	}
	fe.Models = append(fe.Models, string(model))
	return int32(len(fe.Models) - 1)
}

// appendEntries appends b's entries to a, models renumbered.
func appendEntries(a, b *fileEntries) {
	remap := make([]int32, len(b.Models))
	for i, m := range b.Models {
		remap[i] = modelIndex(a, []byte(m))
	}
	for _, e := range b.Entries {
		if e.Model >= 0 {
			e.Model = remap[e.Model]
		}
		a.Entries = append(a.Entries, e)
	}
}

func lastNL(b []byte) int { return bytes.LastIndexByte(b, '\n') }

// decodeAll unpacks the cached entries of every file, in parallel.
func decodeAll(cached []CachedFile, has []bool, workers int) []*fileEntries {
	out := make([]*fileEntries, len(cached))
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(cached) {
					return
				}
				if has[i] {
					if fe, err := decodeFileEntries(cached[i].Data); err == nil {
						out[i] = fe
					}
				}
			}
		}()
	}
	wg.Wait()
	return out
}

// reduceEntries resolves duplicates inside one file's entries, keeping each
// winner at its own position (the reduction is a maximum by the order of
// replaces, so doing it per file first and across files later gives the
// same winners).
func reduceEntries(es []Entry) []Entry {
	at := newKeyTable(len(es))
	dead := make([]bool, len(es))
	found := false
	for i := range es {
		e := &es[i]
		if e.Flags&flagKey == 0 {
			continue
		}
		slot := at.find(e.K0, e.K1, es)
		if j := int(*slot) - 1; j >= 0 {
			found = true
			if replaces(e, &es[j]) {
				dead[j] = true
				*slot = int32(i) + 1
			} else {
				dead[i] = true
			}
			continue
		}
		*slot = int32(i) + 1
	}
	if !found {
		return es
	}
	out := es[:0]
	for i, e := range es {
		if !dead[i] {
			out = append(out, e)
		}
	}
	return out
}
