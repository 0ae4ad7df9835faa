package usage

// Read reads from the current offset (io.Reader).
func (f *rawFile) Read(p []byte) (int, error) {
	n, err := f.pread(p, f.off)
	f.off += int64(n)
	return n, err
}

// ReadAt fills p from off or fails (io.ReaderAt).
func (f *rawFile) ReadAt(p []byte, off int64) (int, error) {
	done := 0
	for done < len(p) {
		n, err := f.pread(p[done:], off+int64(done))
		done += n
		if err != nil {
			return done, err
		}
	}
	return done, nil
}
