package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// errorBody is the one error shape of every route.
type errorBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func writeError(w http.ResponseWriter, status int, code, msg string) {
	var b errorBody
	b.Error.Code, b.Error.Message = code, msg
	writeJSON(w, status, b)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Never a 200 with half a body: say what failed instead.
		status = http.StatusInternalServerError
		b.Reset()
		fmt.Fprintf(&b, `{"error":{"code":"internal","message":%q}}`+"\n", "encode the answer: "+err.Error())
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(b.Bytes())
}

// decodeBody reads exactly one JSON object into v: capped at limit bytes,
// unknown fields and trailing data refused, with a message that says what
// to fix. ok is false when it already answered.
func decodeBody(w http.ResponseWriter, r *http.Request, limit int64, v any) bool {
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(ct, "application/json") {
		writeError(w, http.StatusUnsupportedMediaType, "unsupported_media_type",
			fmt.Sprintf("Content-Type %q; send the body as application/json", ct))
		return false
	}
	body := http.MaxBytesReader(w, r.Body, limit)
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		writeError(w, jsonErrorStatus(err), "bad_request", jsonErrorText(err, limit))
		return false
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		writeError(w, http.StatusBadRequest, "bad_request", "the body holds more than one JSON value; send exactly one object")
		return false
	}
	return true
}

func jsonErrorStatus(err error) int {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return http.StatusRequestEntityTooLarge
	}
	return http.StatusBadRequest
}

// jsonErrorText turns a decoding error into what the client should fix.
func jsonErrorText(err error, limit int64) string {
	var mbe *http.MaxBytesError
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &mbe):
		return fmt.Sprintf("body larger than %d bytes; send less", limit)
	case errors.Is(err, io.EOF):
		return "empty body; send a JSON object"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the JSON body ends early; send a complete object"
	case errors.As(err, &se):
		return fmt.Sprintf("malformed JSON at byte %d: %v", se.Offset, se)
	case errors.As(err, &te):
		if te.Field != "" {
			return fmt.Sprintf("field %q must be %s, not %s", te.Field, typeName(te.Type.String()), te.Value)
		}
		return fmt.Sprintf("the body must be a JSON object, not %s", te.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return strings.TrimPrefix(err.Error(), "json: ") + "; see /api/openapi.json for the fields"
	}
	return "malformed JSON body: " + err.Error()
}

func typeName(goType string) string {
	switch {
	case strings.HasPrefix(goType, "int"):
		return "an integer"
	case goType == "string":
		return "a string"
	case goType == "bool":
		return "true or false"
	case strings.HasPrefix(goType, "[]"):
		return "an array"
	}
	return "a " + goType
}
