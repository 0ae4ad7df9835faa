//go:build !unix

package usage

import "os"

// rawFile is an *os.File where pread through the descriptor is not at
// hand.
type rawFile struct {
	f   *os.File
	off int64 // where Read reads next
}

func openRaw(path string) (*rawFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &rawFile{f: f}, nil
}

func (f *rawFile) Close() error { return f.f.Close() }

// pread is one read at off; (0, io.EOF) at the end.
func (f *rawFile) pread(p []byte, off int64) (int, error) { return f.f.ReadAt(p, off) }
