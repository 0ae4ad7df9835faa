package server_test

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/server"
)

// The OpenAPI document (written by hand) and the registered routes name
// the same operations, both ways; each route's access matches the
// document's security (public routes declare security: []), and every
// operation documents its error answers with the one error shape.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	r := newAPIRig(t, 10, server.Webhooks{})
	status, body, _ := r.do("GET", "/api/openapi.json", "", r.token, nil)
	if status != 200 {
		t.Fatalf("openapi: %d", status)
	}
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(body, &doc); err != nil || !strings.HasPrefix(doc.OpenAPI, "3.") {
		t.Fatalf("not an OpenAPI 3 document: %v", err)
	}
	documented := map[string]json.RawMessage{}
	for path, ops := range doc.Paths {
		for method, op := range ops {
			documented[strings.ToUpper(method)+" "+path] = op
		}
	}
	registered := map[string]server.Route{}
	for _, rt := range r.srv.Routes() {
		registered[rt.Method+" "+rt.Path] = rt
	}
	var missing, extra []string
	for k := range registered {
		if _, ok := documented[k]; !ok {
			missing = append(missing, k)
		}
	}
	for k := range documented {
		if _, ok := registered[k]; !ok {
			extra = append(extra, k)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing) > 0 || len(extra) > 0 {
		t.Errorf("routes not documented: %v\ndocumented but not routes: %v", missing, extra)
	}
	for k, rt := range registered {
		raw, ok := documented[k]
		if !ok {
			continue
		}
		var op struct {
			Summary   string                     `json:"summary"`
			Scope     string                     `json:"x-scope"`
			Security  *[]any                     `json:"security"`
			Responses map[string]json.RawMessage `json:"responses"`
		}
		if err := json.Unmarshal(raw, &op); err != nil {
			t.Errorf("%s: %v", k, err)
			continue
		}
		public := op.Security != nil && len(*op.Security) == 0
		if want := rt.Access == server.Public || rt.Access == server.Signed; public != want {
			t.Errorf("%s: documented public=%v, route access %v", k, public, rt.Access)
		}
		if op.Summary == "" || len(op.Responses) == 0 {
			t.Errorf("%s: no summary or responses", k)
		}
		if rt.Access != server.Public && rt.Access != server.Signed {
			if _, ok := op.Responses["401"]; !ok {
				t.Errorf("%s needs a token but documents no 401", k)
			}
			if _, ok := op.Responses["403"]; !ok || op.Scope != rt.Scope() {
				t.Errorf("%s: documents x-scope %q (403 documented: %v); the route needs %q", k, op.Scope, ok, rt.Scope())
			}
		}
		for code, resp := range op.Responses {
			if code >= "400" && !strings.Contains(string(resp), "#/components/responses/Error") {
				t.Errorf("%s: %s is not the error shape", k, code)
			}
		}
	}
}
