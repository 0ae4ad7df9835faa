package usage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/bits"
)

// scanRegion calls add for every complete line of region (which ends with a
// newline). Every line is parsed: the parser itself notices whether a line
// holds the usage marker, in the same pass that reads it.
func scanRegion(region []byte, add func([]byte)) {
	for len(region) > 0 {
		j := bytes.IndexByte(region, '\n')
		if j < 0 {
			add(region)
			return
		}
		add(region[:j])
		region = region[j+1:]
	}
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
