package server

import (
	_ "embed"
	"net/http"
)

// openapiDoc is the API's OpenAPI 3 document, written by hand and checked
// against the registered routes by TestOpenAPIMatchesRoutes.
//
//go:embed openapi.json
var openapiDoc []byte

func (s *Server) openAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(openapiDoc)
}
