package usage

import (
	"cmp"
	"math/bits"
	"slices"
)

// Entries in time order: a radix sort of small (time, seq) keys, then
// each large entry moved once.

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
