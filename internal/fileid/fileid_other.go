//go:build !unix

// Package fileid names a file by its device and inode (unix only).
package fileid

import "io/fs"

// Of is "" here: the system gives no inode.
func Of(fs.FileInfo) string { return "" }
