package usage

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

// The unfiltered blocks are kept in three store rows per block length:
//
//   - blocks:<ms>: the finished list (JSON []BlockAgg) for a Fingerprint of
//     the tree, so an unchanged tree is answered by one read (the pacing
//     estimate reads and writes the same row);
//   - blocks-state:<ms>: what a run needs to add appended lines without
//     reading every file's entries again: each file's size, mtime, offset
//     and prefix print as last read, the blocks before the last one (in
//     the order they are made), and the entries of the last block
//     (duplicates resolved) — everything later lines can change;
//   - blocks-keys:<ms>: the sorted first halves of the dedupe keys of every
//     entry before the last block, so a new line that repeats an older
//     response is noticed (and the blocks are then rebuilt from every
//     file's cached entries).
//
// A run after an append reads the appended bytes, resolves them against
// the last block's entries and rebuilds that block and the ones after it.
// Anything else — a file deleted, shrunk or rewritten, a line older than
// the last block's first entry, a repeat of an older response — falls back
// to Load and writes the three rows again.

const stateVersion = 3 // 3: prefix prints are SHA-256

type stateFile struct {
	Path      string
	Size      int64
	MtimeNs   int64
	Off       int64
	Print     []byte
	TailEmpty bool // the bytes after Off (an unterminated line) hold no entry
}

type tailEntry struct {
	Entry
	path int32 // index into blockState.Paths
}

type blockState struct {
	D      int64
	Files  []stateFile // by path
	Models []string
	Paths  []string    // paths of tail entries
	Tail   []tailEntry // the last block's entries, in time order
	Prefix []BlockAgg  // blocks before the last one, in the order made
	// Hashes of the blocks-keys rows that go with this state, one row per
	// top byte of the key, so a run reads only the rows of its new keys.
	KeyHashes [keyBuckets]uint64
}

func blocksName(D int64) string { return fmt.Sprintf("blocks:%d", D) }
func stateName(D int64) string  { return fmt.Sprintf("blocks-state:%d", D) }
func keysName(D int64, b int) string {
	return fmt.Sprintf("blocks-keys:%d:%02x", D, b)
}

const keyBuckets = 256

func keyBucket(k uint64) int { return int(k >> 56) }

// LoadBlocks returns the blocks of every entry (BuildBlocks with no
// filter) of opt's files, through the store: from the snapshot when no
// file changed, incrementally after appends, else through Load.
func LoadBlocks(ctx context.Context, st CacheStore, opt Options, length time.Duration) ([]BlockAgg, Stats, error) {
	if length <= 0 {
		length = 5 * time.Hour
	}
	D := length.Milliseconds()
	files := opt.Files
	if files == nil {
		dirs := opt.Dirs
		if dirs == nil {
			dirs = ConfigDirs()
		}
		var err error
		if files, err = DiscoverStore(ctx, st, dirs); err != nil {
			return nil, Stats{}, err
		}
	}
	fp := Fingerprint(files)
	if sfp, data, ok, _ := st.UsageSnapshot(ctx, blocksName(D)); ok && SameFingerprint(fp, sfp) {
		if aggs, err := DecodeBlockAggs(data); err == nil {
			return aggs, Stats{Files: len(files), Snapshot: true}, nil
		}
	}
	if _, data, ok, _ := st.UsageSnapshot(ctx, stateName(D)); ok {
		if s, err := decodeState(data); err == nil && s.D == D {
			out, stats, err := incremental(ctx, st, s, files, fp, opt.Workers)
			if err == nil {
				return out, stats, nil
			}
			if !errors.Is(err, errFallback) {
				return nil, stats, err
			}
		}
	}
	opt.Files = files
	opt.Cache = StoreCache{st}
	l, err := loadFiles(ctx, opt)
	if err != nil {
		return nil, Stats{}, err
	}
	// The per-file rows are written while the blocks are made (their own
	// transaction: rows without the state below, or the reverse, are a
	// consistent cache, only a slower one). A cache that cannot be written
	// is only slower, so errors are dropped.
	rowsSaved := make(chan struct{})
	go func() {
		defer close(rowsSaved)
		if len(l.updates) > 0 || len(l.remove) > 0 {
			_ = st.SaveUsage(ctx, toRows(l.updates), l.remove, nil)
		}
	}()
	// The state leaves out entries of unterminated last lines (read again
	// each run): duplicates are resolved without them, then they are added
	// for the blocks to print. The state is made on one core while the
	// blocks to print are made on the other.
	var stateSnaps []store.UsageSnapshot
	var stateDone sync.WaitGroup
	sd, held := mergeHolding(l.files, l.results, l.tails)
	var gen []BlockAgg
	if len(held) == 0 {
		// Nothing held back: the blocks to print are the state's blocks,
		// made once.
		gen = buildBlocksGen(sd, entryPtrs(sd.Entries), D, nil)
		stateDone.Go(func() { stateSnaps = blocksStateRows(sd, gen, l, D) })
	} else {
		stateDone.Go(func() {
			stateSnaps = blocksStateRows(sd, buildBlocksGen(sd, entryPtrs(sd.Entries), D, nil), l, D)
		})
		gen = buildBlocksGen(sd, withHeld(sd, held), D, nil)
	}
	out := sortBlocks(slices.Clone(gen))
	blocksRow := store.UsageSnapshot{Name: blocksName(D), Fingerprint: fp, Data: EncodeBlockAggs(out)}
	stateDone.Wait()
	snaps := append([]store.UsageSnapshot{blocksRow}, stateSnaps...)
	<-rowsSaved
	_ = st.SaveUsage(ctx, nil, nil, snaps)
	return out, l.stats, nil
}

// blocksStateRows are the store rows of the blocks state made from sd
// (entries without those of unterminated last lines) and gen, its blocks
// in the order made: the state row and the key rows.
func blocksStateRows(sd *Data, gen []BlockAgg, l *loaded, D int64) []store.UsageSnapshot {
	files := l.files
	s := &blockState{D: D, Models: sd.Models, Files: make([]stateFile, len(files))}
	for i, f := range files {
		s.Files[i] = stateFile{Path: f.Path, Size: f.Size, MtimeNs: f.MtimeNs, Off: l.offs[i], Print: l.prints[i],
			TailEmpty: l.offs[i] < f.Size && l.tails[i] == 0}
	}
	sent := sd.Entries
	var keys []uint64
	if len(gen) > 0 {
		first := gen[len(gen)-1].First
		s.Prefix = gen[:len(gen)-1]
		k := sort.Search(len(sent), func(i int) bool { return sent[i].TS >= first })
		pathIdx := map[int32]int32{}
		for i := range sent[k:] {
			e := &sent[k+i]
			pi, ok := pathIdx[e.File]
			if !ok {
				pi = int32(len(s.Paths))
				s.Paths = append(s.Paths, files[e.File].Path)
				pathIdx[e.File] = pi
			}
			s.Tail = append(s.Tail, tailEntry{Entry: *e, path: pi})
		}
		for i := range sent[:k] {
			if sent[i].Flags&flagKey != 0 {
				keys = append(keys, sent[i].K0)
			}
		}
		keys = sortKeys(keys)
	}
	var snaps []store.UsageSnapshot
	for b := 0; b < keyBuckets; b++ {
		lo := sort.Search(len(keys), func(i int) bool { return keyBucket(keys[i]) >= b })
		hi := sort.Search(len(keys), func(i int) bool { return keyBucket(keys[i]) > b })
		kb := encodeKeys(keys[lo:hi])
		s.KeyHashes[b] = keysID(kb)
		snaps = append(snaps, store.UsageSnapshot{Name: keysName(D, b), Fingerprint: []byte{stateVersion}, Data: kb})
	}
	return append(snaps, store.UsageSnapshot{Name: stateName(D), Fingerprint: []byte{stateVersion}, Data: encodeState(s)})
}

// sortKeys sorts dedupe key halves (a radix sort: there are as many as
// entries, and they are uniform).
func sortKeys(keys []uint64) []uint64 {
	ks := make([]sortKey, len(keys))
	for i, k := range keys {
		ks[i].k = k
	}
	ks = radixSort(ks, make([]sortKey, len(ks)), 64)
	for i := range ks {
		keys[i] = ks[i].k
	}
	return keys
}

func entryPtrs(es []Entry) []*Entry {
	out := make([]*Entry, len(es))
	for i := range es {
		out[i] = &es[i]
	}
	return out
}

var errFallback = errors.New("usage: blocks state does not apply")

// incremental applies what was appended since s to s; errFallback when it
// cannot.
func incremental(ctx context.Context, st CacheStore, s *blockState, files []File, fp []byte, workers int) ([]BlockAgg, Stats, error) {
	stats := Stats{Files: len(files), Incremental: true}
	byPath := make(map[string]int, len(s.Files))
	for i := range s.Files {
		byPath[s.Files[i].Path] = i
	}
	seen := 0
	var jobs []readJob
	for _, f := range files {
		i, ok := byPath[f.Path]
		if !ok {
			jobs = append(jobs, readJob{file: f, persist: true})
			continue
		}
		seen++
		sf := &s.Files[i]
		switch {
		case sf.Size == f.Size && sf.MtimeNs == f.MtimeNs:
			if sf.Off < f.Size && !sf.TailEmpty {
				jobs = append(jobs, readJob{file: f, sf: sf, from: sf.Off})
			}
		case f.Size >= sf.Off && len(sf.Print) > 0:
			jobs = append(jobs, readJob{file: f, sf: sf, from: sf.Off, persist: true})
		default:
			return nil, stats, errFallback // shrunk below what was read
		}
	}
	if seen != len(s.Files) {
		return nil, stats, errFallback // a file was deleted or renamed
	}
	results := make([]readResult, len(jobs))
	if err := runReads(ctx, jobs, results, workers); err != nil {
		return nil, stats, err
	}
	var cands []cand
	for k, j := range jobs {
		r := results[k]
		if r.changed {
			return nil, stats, errFallback // rewritten
		}
		stats.FilesParsed++
		stats.BytesRead += j.file.Size - j.from
		n := len(r.fe.Entries)
		for i, e := range r.fe.Entries {
			m := ""
			if e.Model >= 0 {
				m = r.fe.Models[e.Model]
			}
			cands = append(cands, cand{e: e, model: m, path: j.file.Path, ord: i, eph: !j.persist || i >= n-r.tail})
		}
	}
	stats.Lines = int64(len(cands))
	// The new entries in the order Load would meet them: by path, then
	// position.
	sort.SliceStable(cands, func(a, b int) bool { return cands[a].path < cands[b].path })

	// The key rows of the new entries' buckets.
	keys := map[int][]byte{}
	readBucket := func(b int) ([]byte, error) {
		if kb, ok := keys[b]; ok {
			return kb, nil
		}
		_, data, ok, err := st.UsageSnapshot(ctx, keysName(s.D, b))
		if err != nil || !ok || len(data)%8 != 0 || keysID(data) != s.KeyHashes[b] {
			return nil, errFallback
		}
		keys[b] = data
		return data, nil
	}
	for _, c := range cands {
		if c.e.Flags&flagKey != 0 {
			if _, err := readBucket(keyBucket(c.e.K0)); err != nil {
				return nil, stats, err
			}
		}
	}
	var kept []cand
	for _, c := range cands {
		if !c.eph {
			kept = append(kept, c)
		}
	}
	// What the state becomes (appended complete lines), and what is shown
	// (with unterminated last lines too).
	saved, err := s.apply(kept, keys)
	if err != nil {
		return nil, stats, err
	}
	shown := saved
	if len(kept) != len(cands) {
		if shown, err = s.apply(cands, keys); err != nil {
			return nil, stats, err
		}
	}
	out := sortBlocks(append(slices.Clone(s.Prefix), shown.blocks...))

	// The new state.
	ns := &blockState{D: s.D, Models: saved.d.Models, Prefix: s.Prefix, KeyHashes: s.KeyHashes}
	var moved []uint64
	gen := saved.blocks
	if len(gen) > 0 {
		first := gen[len(gen)-1].First
		ns.Prefix = append(slices.Clone(s.Prefix), gen[:len(gen)-1]...)
		pathIdx := map[string]int32{}
		for i := range saved.d.Entries {
			e := &saved.d.Entries[i]
			p := saved.paths[i]
			if e.TS < first {
				if e.Flags&flagKey != 0 {
					moved = append(moved, e.K0)
				}
				continue
			}
			pi, ok := pathIdx[p]
			if !ok {
				pi = int32(len(ns.Paths))
				ns.Paths = append(ns.Paths, p)
				pathIdx[p] = pi
			}
			ns.Tail = append(ns.Tail, tailEntry{Entry: *e, path: pi})
		}
	}
	snaps := []store.UsageSnapshot{{Name: blocksName(s.D), Fingerprint: fp, Data: EncodeBlockAggs(out)}}
	// Keys of entries that left the last block join their buckets.
	byBucket := map[int][]uint64{}
	for _, k := range moved {
		byBucket[keyBucket(k)] = append(byBucket[keyBucket(k)], k)
	}
	for b, add := range byBucket {
		old, err := readBucket(b)
		if err != nil {
			return nil, stats, err
		}
		all := make([]uint64, 0, len(old)/8+len(add))
		for i := 0; i < len(old); i += 8 {
			all = append(all, binary.LittleEndian.Uint64(old[i:]))
		}
		all = append(all, add...)
		slices.Sort(all)
		kb := encodeKeys(all)
		ns.KeyHashes[b] = keysID(kb)
		snaps = append(snaps, store.UsageSnapshot{Name: keysName(s.D, b), Fingerprint: []byte{stateVersion}, Data: kb})
	}

	// Files: the new offsets and prints, and the per-file cache rows of
	// appended files (when they are where the state left them).
	ns.Files = make([]stateFile, 0, len(files))
	upd := map[string]stateFile{}
	var appended []string
	for k, j := range jobs {
		r := results[k]
		sf := stateFile{Path: j.file.Path, Size: j.file.Size, MtimeNs: j.file.MtimeNs, Off: r.off, Print: r.print, TailEmpty: r.off < j.file.Size && r.tail == 0}
		if !j.persist {
			sf.Off, sf.Print = j.sf.Off, j.sf.Print
		}
		upd[j.file.Path] = sf
		if j.persist {
			appended = append(appended, j.file.Path)
		}
	}
	for _, f := range files {
		if sf, ok := upd[f.Path]; ok {
			ns.Files = append(ns.Files, sf)
		} else {
			ns.Files = append(ns.Files, s.Files[byPath[f.Path]])
		}
	}
	snaps = append(snaps, store.UsageSnapshot{Name: stateName(s.D), Fingerprint: []byte{stateVersion}, Data: encodeState(ns)})
	rows := fileRowUpdates(ctx, st, s, byPath, jobs, results, appended)
	_ = st.SaveUsage(ctx, rows, nil, snaps) // a cache that cannot be written is only slower
	return out, stats, nil
}

// applied is the state's last block with new entries: the entries (time
// order, costs set) with their paths, and the blocks they make, in the
// order made.
type applied struct {
	d      *Data
	paths  []string
	blocks []BlockAgg
}

// seqLess is the order Load meets entries in: by path, and in a file the
// state's entries before the new ones, then by position.
type member struct {
	e    Entry
	path string
	tail bool
	ord  int
}

func (a *member) before(b *member) bool {
	if a.path != b.path {
		return a.path < b.path
	}
	if a.tail != b.tail {
		return a.tail
	}
	return a.ord < b.ord
}

// apply adds new entries (in Load's order) to the state's last block and
// builds the blocks from that block on; errFallback when an entry repeats
// a response before the last block or lands before its first entry.
func (s *blockState) apply(cands []cand, keys map[int][]byte) (*applied, error) {
	ms := make([]member, 0, len(s.Tail)+len(cands))
	type key struct{ a, b uint64 }
	at := make(map[key]int, len(s.Tail)+len(cands))
	for i := range s.Tail {
		t := &s.Tail[i]
		ms = append(ms, member{e: t.Entry, path: s.Paths[t.path], tail: true, ord: i})
		if t.Flags&flagKey != 0 {
			at[key{t.K0, t.K1}] = len(ms) - 1
		}
	}
	var first int64 = math.MinInt64
	if len(s.Tail) > 0 {
		first = s.Tail[0].TS
	}
	models := slices.Clone(s.Models)
	modelIdx := make(map[string]int32, len(models))
	for i, m := range models {
		modelIdx[m] = int32(i)
	}
	dead := map[int]bool{}
	for _, c := range cands {
		if c.e.TS < first {
			return nil, errFallback
		}
		e := c.e
		e.Model = -1
		if c.model != "" {
			k, ok := modelIdx[c.model]
			if !ok {
				k = int32(len(models))
				models = append(models, c.model)
				modelIdx[c.model] = k
			}
			e.Model = k
		}
		m := member{e: e, path: c.path, ord: c.ord}
		if e.Flags&flagKey == 0 {
			ms = append(ms, m)
			continue
		}
		k := key{e.K0, e.K1}
		if j, ok := at[k]; ok {
			w := &ms[j]
			// The first of the copies that no other copy replaces wins.
			if replaces(&m.e, &w.e) || (!replaces(&w.e, &m.e) && m.before(w)) {
				dead[j] = true
				ms = append(ms, m)
				at[k] = len(ms) - 1
			}
			continue
		}
		if hasKey(keys[keyBucket(e.K0)], e.K0) {
			return nil, errFallback // repeats a response before the last block
		}
		ms = append(ms, m)
		at[k] = len(ms) - 1
	}
	live := ms[:0]
	for i := range ms {
		if !dead[i] {
			live = append(live, ms[i])
		}
	}
	sort.SliceStable(live, func(i, j int) bool {
		if live[i].e.TS != live[j].e.TS {
			return live[i].e.TS < live[j].e.TS
		}
		return live[i].before(&live[j])
	})
	if len(s.Tail) > 0 && (len(live) == 0 || live[0].e.TS != first) {
		return nil, errFallback // the last block's first entry was replaced by a later copy
	}
	d := &Data{Models: models, Entries: make([]Entry, len(live))}
	paths := make([]string, len(live))
	for i := range live {
		d.Entries[i] = live[i].e
		paths[i] = live[i].path
	}
	d.price()
	return &applied{d: d, paths: paths, blocks: buildBlocksGen(d, entryPtrs(d.Entries), s.D, nil)}, nil
}

var (
	pricesPrintOnce sync.Once
	pricesPrintV    []byte
)
