package server

import (
	"errors"
	"fmt"
	"io"
	"net/http"
)

// What a webhook reads at the most. The GitHub route is open to anyone
// (the signature is over the whole body, so the body must be read before
// it can be checked): its cap bounds what a stranger makes the daemon
// buffer. GitHub allows 25 MB per payload, but only for the pushes we never
// take; an issue or issue_comment payload carries at most a 65,536-character
// issue body and comment plus metadata, well under 1 MiB, and a prompt
// beyond 64 KiB is refused anyway. Telegram updates carry messages of at
// most 4,096 characters. Alertmanager's route needs a token before it
// reads, and many grouped alerts can make a large notification: 5 MiB.
const (
	githubBodyLimit       = 1 << 20
	telegramBodyLimit     = 1 << 20
	alertmanagerBodyLimit = 5 << 20
)

// readRaw reads a webhook body whole (signatures are over the raw bytes),
// at most limit bytes: a body announced larger is refused before any of it
// is read, one that turns out larger (chunked) as soon as it passes the
// limit. ok is false when it already answered.
func readRaw(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, bool) {
	tooLarge := fmt.Sprintf("body larger than %d bytes; webhook payloads this large are not taken", limit)
	if r.ContentLength > limit {
		w.Header().Set("Connection", "close") // the unread body is not drained
		writeError(w, http.StatusRequestEntityTooLarge, "too_large", tooLarge)
		return nil, false
	}
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		writeError(w, http.StatusRequestEntityTooLarge, "too_large", tooLarge)
		return nil, false
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, "bad_request", "could not read the body: "+err.Error())
		return nil, false
	}
	return b, true
}

func notConfigured(w http.ResponseWriter, key string) {
	writeError(w, http.StatusNotFound, "not_configured", "this webhook is off; set "+key+" in the user config to switch it on")
}
