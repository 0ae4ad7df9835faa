// Package handlers holds the hook handlers, one file each. A file registers
// its handler with pipeline.Register from init; the hook runtime imports this
// package for that side effect. Handler order is file-name order.
package handlers
