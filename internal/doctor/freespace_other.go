//go:build !unix

package doctor

// freeSpace is unknown here.
func freeSpace(string) (uint64, bool) { return 0, false }
