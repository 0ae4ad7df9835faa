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

const snapshotVersion = 1

// EncodeBlockAggs packs blocks for the snapshot cache.
func EncodeBlockAggs(b []BlockAgg) []byte {
	out, _ := json.Marshal(b)
	return out
}

// DecodeBlockAggs unpacks EncodeBlockAggs.
func DecodeBlockAggs(data []byte) ([]BlockAgg, error) {
	var b []BlockAgg
	err := json.Unmarshal(data, &b)
	return b, err
}

// SameFingerprint compares two fingerprints.
func SameFingerprint(a, b []byte) bool { return len(a) > 0 && bytes.Equal(a, b) }
