package usage

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
)

// The binary codec of what the store keeps for usage: a file's entries
// (the per-file cache), and the varint writer and reader (wbuf, rbuf) that
// the blocks state, the block snapshots and the directory cache share.
// Hand-written rather than gob or JSON: decoding every cached file is on
// the path of each report, and these records are read far more than
// written.

// codecVersion 2: keys from the word-at-a-time hashKey.
const codecVersion = 2

// encodeFileEntries packs a file's entries for the cache.
func encodeFileEntries(fe *fileEntries) []byte {
	out := make([]byte, 0, 16+len(fe.Entries)*48)
	out = append(out, codecVersion)
	out = binary.AppendUvarint(out, uint64(len(fe.Models)))
	for _, m := range fe.Models {
		out = binary.AppendUvarint(out, uint64(len(m)))
		out = append(out, m...)
	}
	out = binary.AppendUvarint(out, uint64(len(fe.Entries)))
	var prev int64
	for i := range fe.Entries {
		e := &fe.Entries[i]
		out = binary.AppendVarint(out, e.TS-prev)
		prev = e.TS
		flags := e.Flags
		out = append(out, flags)
		if flags&flagKey != 0 {
			out = binary.LittleEndian.AppendUint64(out, e.K0)
			out = binary.LittleEndian.AppendUint64(out, e.K1)
		}
		out = binary.AppendVarint(out, int64(e.Model))
		out = binary.AppendUvarint(out, uint64(e.In))
		out = binary.AppendUvarint(out, uint64(e.Out))
		out = binary.AppendUvarint(out, uint64(e.Cache5m))
		out = binary.AppendUvarint(out, uint64(e.Cache1h))
		out = binary.AppendUvarint(out, uint64(e.CacheRead))
		out = binary.AppendUvarint(out, uint64(e.Reset))
		if flags&flagCost != 0 {
			out = binary.LittleEndian.AppendUint64(out, math.Float64bits(e.CostUSD))
		}
	}
	return out
}

var errCodec = errors.New("usage cache: bad record")

func decodeFileEntries(b []byte) (*fileEntries, error) {
	if len(b) == 0 || b[0] != codecVersion {
		return nil, errCodec
	}
	i := 1
	uv := func() uint64 {
		v, n := binary.Uvarint(b[i:])
		if n <= 0 {
			i = len(b) + 1
			return 0
		}
		i += n
		return v
	}
	sv := func() int64 {
		v, n := binary.Varint(b[i:])
		if n <= 0 {
			i = len(b) + 1
			return 0
		}
		i += n
		return v
	}
	fe := &fileEntries{}
	nm := uv()
	for k := uint64(0); k < nm && i <= len(b); k++ {
		l := int(uv())
		if i+l > len(b) {
			return nil, errCodec
		}
		fe.Models = append(fe.Models, string(b[i:i+l]))
		i += l
	}
	ne := uv()
	if i > len(b) || ne > uint64(len(b)) {
		return nil, errCodec
	}
	fe.Entries = make([]Entry, 0, ne)
	var prev int64
	for k := uint64(0); k < ne; k++ {
		var e Entry
		e.TS = prev + sv()
		prev = e.TS
		if i >= len(b) {
			return nil, errCodec
		}
		e.Flags = b[i]
		i++
		if e.Flags&flagKey != 0 {
			if i+16 > len(b) {
				return nil, errCodec
			}
			e.K0 = binary.LittleEndian.Uint64(b[i:])
			e.K1 = binary.LittleEndian.Uint64(b[i+8:])
			i += 16
		}
		e.Model = int32(sv())
		e.In = int64(uv())
		e.Out = int64(uv())
		e.Cache5m = int64(uv())
		e.Cache1h = int64(uv())
		e.CacheRead = int64(uv())
		e.Reset = int64(uv())
		if e.Flags&flagCost != 0 {
			if i+8 > len(b) {
				return nil, errCodec
			}
			e.CostUSD = math.Float64frombits(binary.LittleEndian.Uint64(b[i:]))
			i += 8
		}
		if i > len(b) || e.Model >= int32(len(fe.Models)) {
			return nil, errCodec
		}
		fe.Entries = append(fe.Entries, e)
	}
	return fe, nil
}

// decodeAll unpacks the cached entries of every file, in parallel.
func decodeAll(cached []CachedFile, has []bool, workers int) []*fileEntries {
	out := make([]*fileEntries, len(cached))
	_ = forEach(context.Background(), len(cached), workers, noState, func(_ struct{}, i int) error {
		if has[i] {
			if fe, err := decodeFileEntries(cached[i].Data); err == nil {
				out[i] = fe
			}
		}
		return nil
	})
	return out
}

// State codec: varints, strings with a length.

type wbuf struct{ b []byte }

func (w *wbuf) u(v uint64)  { w.b = binary.AppendUvarint(w.b, v) }
func (w *wbuf) i(v int64)   { w.b = binary.AppendVarint(w.b, v) }
func (w *wbuf) s(v string)  { w.u(uint64(len(v))); w.b = append(w.b, v...) }
func (w *wbuf) by(v []byte) { w.u(uint64(len(v))); w.b = append(w.b, v...) }
func (w *wbuf) f(v float64) { w.b = binary.LittleEndian.AppendUint64(w.b, math.Float64bits(v)) }
func (w *wbuf) bool(v bool) {
	b := byte(0)
	if v {
		b = 1
	}
	w.b = append(w.b, b)
}
func (w *wbuf) k(v uint64) { w.b = binary.LittleEndian.AppendUint64(w.b, v) }
func (w *wbuf) entry(e *Entry, prev int64) {
	w.i(e.TS - prev)
	w.b = append(w.b, e.Flags)
	if e.Flags&flagKey != 0 {
		w.k(e.K0)
		w.k(e.K1)
	}
	w.i(int64(e.Model))
	w.u(uint64(e.In))
	w.u(uint64(e.Out))
	w.u(uint64(e.Cache5m))
	w.u(uint64(e.Cache1h))
	w.u(uint64(e.CacheRead))
	w.i(e.Reset)
	if e.Flags&flagCost != 0 {
		w.f(e.CostUSD)
	}
}

type rbuf struct {
	b   []byte
	err bool
}

func (r *rbuf) u() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err, r.b = true, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *rbuf) i() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err, r.b = true, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *rbuf) take(n uint64) []byte {
	if n > uint64(len(r.b)) {
		r.err, r.b = true, nil
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *rbuf) s() string  { return string(r.take(r.u())) }
func (r *rbuf) by() []byte { return bytes.Clone(r.take(r.u())) }
func (r *rbuf) k() uint64 {
	b := r.take(8)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint64(b)
}
func (r *rbuf) f() float64 { return math.Float64frombits(r.k()) }
func (r *rbuf) bool() bool { b := r.take(1); return b != nil && b[0] == 1 }
func (r *rbuf) entry(prev int64) Entry {
	var e Entry
	e.TS = prev + r.i()
	if b := r.take(1); b != nil {
		e.Flags = b[0]
	}
	if e.Flags&flagKey != 0 {
		e.K0, e.K1 = r.k(), r.k()
	}
	e.Model = int32(r.i())
	e.In, e.Out = int64(r.u()), int64(r.u())
	e.Cache5m, e.Cache1h, e.CacheRead = int64(r.u()), int64(r.u()), int64(r.u())
	e.Reset = r.i()
	if e.Flags&flagCost != 0 {
		e.CostUSD = r.f()
	}
	return e
}
