package usage

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"sync"
)

// Duplicates resolved as ccusage does: streamed copies of one response
// share the 128-bit key of (message.id, requestId); the winner is chosen by
// replaces, within a file first and then across files, in open-addressing
// tables sized once.

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

// hashKey is the 128-bit dedupe key of (message.id, requestId) or, without
// a requestId, (message.id, sessionId). It reads eight bytes at a time into
// two multiply-xorshift lanes (a byte-at-a-time hash was a visible part of
// a cold run); both lengths and the kind of second id go in first, so the
// zero padding of a last partial word cannot make two inputs alike, and
// each half ends with a full avalanche.
func hashKey(msg, second []byte, bySession bool) (uint64, uint64) {
	const (
		m1 = 0x9E3779B97F4A7C15
		m2 = 0xC2B2AE3D27D4EB4F
	)
	kind := uint64(1)
	if bySession {
		kind = 2
	}
	a := uint64(len(msg))<<32 | uint64(len(second))<<2 | kind
	b := a ^ 0x243F6A8885A308D3
	a ^= 0x13198A2E03707344
	step := func(w uint64) {
		a = (a ^ w) * m1
		a ^= a >> 29
		b = (bits.RotateLeft64(b, 23) ^ w) * m2
		b ^= b >> 32
	}
	for _, p := range [2][]byte{msg, second} {
		for ; len(p) >= 8; p = p[8:] {
			step(binary.LittleEndian.Uint64(p))
		}
		var last [8]byte
		copy(last[:], p)
		step(binary.LittleEndian.Uint64(last[:]))
	}
	return fmix64(a ^ bits.RotateLeft64(b, 32)), fmix64(b + a)
}

// fmix64 is MurmurHash3's finalizer.
func fmix64(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}
