package server

import (
	"errors"
	"io"
	"net/http"
)

// webhookBodyLimit caps webhook bodies (GitHub's issue payloads are tens
// of KB; its own cap is 25 MB for pushes we never take).
const webhookBodyLimit = 5 << 20

// readRaw reads a webhook body whole (signatures are over the raw bytes);
// ok is false when it already answered.
func readRaw(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, webhookBodyLimit))
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		writeError(w, http.StatusRequestEntityTooLarge, "too_large", "body larger than 5 MiB")
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
