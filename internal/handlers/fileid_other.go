//go:build !unix

package handlers

import "io/fs"

func fileID(fs.FileInfo) string { return "" }
