package store

// UsageFile is one row of the usage cache (migrations 0003, 0008): a
// transcript file's size and mtime when read, the offset parsed so far, a
// fingerprint of the bytes before that offset and the packed entries found
// there. The packing and the fingerprint belong to internal/usage; the
// store only keeps the bytes.
type UsageFile struct {
	Path    string
	Size    int64
	MtimeNs int64
	Offset  int64
	Prefix  []byte // fingerprint of the first Offset bytes; empty = unknown
	Data    []byte
}

// UsageSnapshot is one row of usage_report_cache.
type UsageSnapshot struct {
	Name        string
	Fingerprint []byte
	Data        []byte
}
