package usage

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/fnv"
)

// Fingerprint identifies the transcript tree as read: every file's path,
// size and mtime, plus the price table and entry format of this binary.
func Fingerprint(files []File) []byte {
	h := fnv.New128a()
	var b [16]byte
	h.Write([]byte{codecVersion, snapshotVersion})
	h.Write(pricesJSON)
	for _, f := range files {
		h.Write([]byte(f.Path))
		binary.LittleEndian.PutUint64(b[:8], uint64(f.Size))
		binary.LittleEndian.PutUint64(b[8:], uint64(f.MtimeNs))
		h.Write(b[:])
	}
	return h.Sum(nil)
}

const snapshotVersion = 2

// EncodeBlockAggs packs blocks for the snapshot cache (binary: a version
// byte, the model names once, then per block varints).
func EncodeBlockAggs(b []BlockAgg) []byte {
	w := &wbuf{b: make([]byte, 0, 16+40*len(b))}
	w.b = append(w.b, 0xB0|snapshotVersion)
	idx := map[string]uint64{}
	var names []string
	for i := range b {
		for _, m := range b[i].Models {
			if _, ok := idx[m]; !ok {
				idx[m] = uint64(len(names))
				names = append(names, m)
			}
		}
	}
	w.u(uint64(len(names)))
	for _, m := range names {
		w.s(m)
	}
	w.u(uint64(len(b)))
	var prev int64
	for i := range b {
		a := &b[i]
		w.i(a.Start - prev)
		prev = a.Start
		w.i(a.End - a.Start)
		w.bool(a.Gap)
		if a.Gap {
			continue
		}
		w.i(a.ActualEnd - a.Start)
		w.i(a.First - a.Start)
		w.u(uint64(a.Entries))
		w.u(uint64(a.In))
		w.u(uint64(a.Out))
		w.u(uint64(a.CacheCreate))
		w.u(uint64(a.Read))
		w.f(a.Cost)
		w.i(a.Reset)
		w.u(uint64(len(a.Models)))
		for _, m := range a.Models {
			w.u(idx[m])
		}
	}
	return w.b
}

// DecodeBlockAggs unpacks EncodeBlockAggs (and the JSON of earlier
// versions).
func DecodeBlockAggs(data []byte) ([]BlockAgg, error) {
	if len(data) > 0 && (data[0] == '[' || data[0] == 'n') {
		var b []BlockAgg
		err := json.Unmarshal(data, &b)
		return b, err
	}
	if len(data) == 0 || data[0] != 0xB0|snapshotVersion {
		return nil, errState
	}
	r := &rbuf{b: data[1:]}
	n := r.u()
	if n > uint64(len(data)) {
		return nil, errState
	}
	names := make([]string, 0, n)
	for k := uint64(0); k < n && !r.err; k++ {
		names = append(names, r.s())
	}
	n = r.u()
	if n > uint64(len(data)) {
		return nil, errState
	}
	out := make([]BlockAgg, 0, n)
	var prev int64
	for k := uint64(0); k < n && !r.err; k++ {
		var a BlockAgg
		a.Start = prev + r.i()
		prev = a.Start
		a.End = a.Start + r.i()
		a.Gap = r.bool()
		a.Models = []string{}
		if !a.Gap {
			a.ActualEnd = a.Start + r.i()
			a.First = a.Start + r.i()
			a.Entries = int(r.u())
			a.In, a.Out, a.CacheCreate, a.Read = int64(r.u()), int64(r.u()), int64(r.u()), int64(r.u())
			a.Cost = r.f()
			a.Reset = r.i()
			nm := r.u()
			if nm > uint64(len(names)) {
				return nil, errState
			}
			for j := uint64(0); j < nm; j++ {
				m := r.u()
				if m >= uint64(len(names)) {
					return nil, errState
				}
				a.Models = append(a.Models, names[m])
			}
		}
		out = append(out, a)
	}
	if r.err || len(r.b) != 0 {
		return nil, errState
	}
	return out, nil
}

// SameFingerprint compares two fingerprints.
func SameFingerprint(a, b []byte) bool { return len(a) > 0 && bytes.Equal(a, b) }
