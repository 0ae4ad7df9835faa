// Package handlers holds the hook handlers, one file each with a
// constructor returning its pipeline.Handler; All (all.go) lists them in
// run order and is what the hook runtime runs.
package handlers
