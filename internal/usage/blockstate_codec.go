package usage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/fnv"
	"sort"
)

// The binary form of the blocks state (blocks-state:<ms>) and of the
// sorted dedupe keys (blocks-keys:<ms>:<bucket>), on the varint codec of
// codec.go.

func hasKey(keys []byte, k uint64) bool {
	n := len(keys) / 8
	i := sort.Search(n, func(i int) bool { return binary.LittleEndian.Uint64(keys[8*i:]) >= k })
	return i < n && binary.LittleEndian.Uint64(keys[8*i:]) == k
}

func encodeKeys(keys []uint64) []byte {
	out := make([]byte, 0, 8*len(keys))
	for _, k := range keys {
		out = binary.LittleEndian.AppendUint64(out, k)
	}
	return out
}

func keysID(b []byte) uint64 {
	h := uint64(14695981039346656037)
	h ^= uint64(len(b))
	for i := 0; i+8 <= len(b); i += 8 {
		h ^= binary.LittleEndian.Uint64(b[i:])
		h *= 1099511628211
		h ^= h >> 31
	}
	return h
}

func encodeState(s *blockState) []byte {
	w := &wbuf{b: make([]byte, 0, 64*len(s.Files)+64*len(s.Tail)+256)}
	w.b = append(w.b, stateVersion, codecVersion, snapshotVersion)
	w.b = append(w.b, pricesPrint()...)
	w.i(s.D)
	for _, h := range s.KeyHashes {
		w.k(h)
	}
	w.u(uint64(len(s.Files)))
	for _, f := range s.Files {
		w.s(f.Path)
		w.i(f.Size)
		w.i(f.MtimeNs)
		w.i(f.Off)
		w.by(f.Print)
		w.bool(f.TailEmpty)
	}
	w.u(uint64(len(s.Models)))
	for _, m := range s.Models {
		w.s(m)
	}
	w.u(uint64(len(s.Paths)))
	for _, p := range s.Paths {
		w.s(p)
	}
	w.u(uint64(len(s.Tail)))
	var prev int64
	for i := range s.Tail {
		w.u(uint64(s.Tail[i].path))
		w.entry(&s.Tail[i].Entry, prev)
		prev = s.Tail[i].TS
	}
	w.by(EncodeBlockAggs(s.Prefix))
	return w.b
}

var errState = errors.New("usage: bad blocks state")

func decodeState(b []byte) (*blockState, error) {
	pp := pricesPrint()
	if len(b) < 3+len(pp) || b[0] != stateVersion || b[1] != codecVersion || b[2] != snapshotVersion || !bytes.Equal(b[3:3+len(pp)], pp) {
		return nil, errState // another format or price table: rebuild
	}
	r := &rbuf{b: b[3+len(pp):]}
	s := &blockState{D: r.i()}
	for b := range s.KeyHashes {
		s.KeyHashes[b] = r.k()
	}
	n := r.u()
	if n > uint64(len(b)) {
		return nil, errState
	}
	s.Files = make([]stateFile, 0, n)
	for k := uint64(0); k < n && !r.err; k++ {
		s.Files = append(s.Files, stateFile{Path: r.s(), Size: r.i(), MtimeNs: r.i(), Off: r.i(), Print: r.by(), TailEmpty: r.bool()})
	}
	n = r.u()
	for k := uint64(0); k < n && !r.err; k++ {
		s.Models = append(s.Models, r.s())
	}
	n = r.u()
	for k := uint64(0); k < n && !r.err; k++ {
		s.Paths = append(s.Paths, r.s())
	}
	n = r.u()
	if n > uint64(len(b)) {
		return nil, errState
	}
	var prev int64
	for k := uint64(0); k < n && !r.err; k++ {
		p := r.u()
		e := r.entry(prev)
		prev = e.TS
		if p >= uint64(len(s.Paths)) || e.Model >= int32(len(s.Models)) {
			return nil, errState
		}
		s.Tail = append(s.Tail, tailEntry{Entry: e, path: int32(p)})
	}
	prefix := r.by()
	if r.err {
		return nil, errState
	}
	var err error
	if s.Prefix, err = DecodeBlockAggs(prefix); err != nil {
		return nil, errState
	}
	return s, nil
}

// pricesPrint identifies the price table (a state priced with another one
// is rebuilt).
func pricesPrint() []byte {
	pricesPrintOnce.Do(func() {
		h := fnv.New64a()
		h.Write(pricesJSON)
		pricesPrintV = h.Sum(nil)
	})
	return pricesPrintV
}
