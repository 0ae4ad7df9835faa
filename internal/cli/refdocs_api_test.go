package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// docs/reference/api.md is rendered from the daemon's OpenAPI document,
// read by path: internal/server links net/http and the daemon's
// dependencies, which the CLI package's tests need not build. The server's
// own test keeps that document equal to the registered routes, so the page
// follows the routes too.

const openapiFile = "internal/server/openapi.json"

type apiSchema struct {
	Ref         string                `json:"$ref"`
	Type        string                `json:"type"`
	Format      string                `json:"format"`
	Enum        []any                 `json:"enum"`
	Items       *apiSchema            `json:"items"`
	Properties  map[string]*apiSchema `json:"properties"`
	Required    []string              `json:"required"`
	AddProps    json.RawMessage       `json:"additionalProperties"`
	Description string                `json:"description"`
	Minimum     *float64              `json:"minimum"`
	Maximum     *float64              `json:"maximum"`
	MaxLength   *int                  `json:"maxLength"`
	MaxItems    *int                  `json:"maxItems"`
	Pattern     string                `json:"pattern"`
	// raw keeps the object's own bytes, for its properties' order.
	raw json.RawMessage
}

func (s *apiSchema) UnmarshalJSON(b []byte) error {
	type plain apiSchema
	if err := json.Unmarshal(b, (*plain)(s)); err != nil {
		return err
	}
	s.raw = append(json.RawMessage(nil), b...)
	return nil
}

// propertyOrder is the order the document lists s's properties in.
func (s *apiSchema) propertyOrder() []string {
	var obj struct {
		Properties json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(s.raw, &obj) != nil || obj.Properties == nil {
		return nil
	}
	return orderedKeys(obj.Properties)
}

type apiParam struct {
	Name        string     `json:"name"`
	In          string     `json:"in"`
	Required    bool       `json:"required"`
	Description string     `json:"description"`
	Schema      *apiSchema `json:"schema"`
}

type apiMedia struct {
	Schema *apiSchema `json:"schema"`
}

type apiResponse struct {
	Ref         string              `json:"$ref"`
	Description string              `json:"description"`
	Content     map[string]apiMedia `json:"content"`
}

type apiOperation struct {
	Summary     string     `json:"summary"`
	Description string     `json:"description"`
	Security    *[]any     `json:"security"`
	Parameters  []apiParam `json:"parameters"`
	RequestBody *struct {
		Required bool                `json:"required"`
		Content  map[string]apiMedia `json:"content"`
	} `json:"requestBody"`
	Responses map[string]apiResponse `json:"responses"`
}

// orderedKeys lists a JSON object's keys in the order they appear.
func orderedKeys(raw json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return keys
		}
		keys = append(keys, t.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return keys
		}
	}
	return keys
}

// apiAccess says who may call an operation, from its security and path:
// the server's test ties security: [] to its public and signed routes, and
// its /internal/ routes also refuse connections from other machines.
func apiAccess(path string, op *apiOperation) string {
	public := op.Security != nil && len(*op.Security) == 0
	switch {
	case public && strings.HasPrefix(path, "/webhook/"):
		return "no token: the webhook checks its own signature or secret"
	case public:
		return "anyone, no token"
	case strings.HasPrefix(path, "/internal/"):
		return "token, from this machine only"
	default:
		return "token"
	}
}

func apiRefName(ref string) string {
	return strings.TrimPrefix(ref, "#/components/schemas/")
}

// apiType renders a schema in one short line: a link for a named schema,
// `[X]` for an array, `{a, b}` for an inline object, its type and limits
// otherwise.
func apiType(s *apiSchema) string {
	if s == nil {
		return ""
	}
	if s.Ref != "" {
		n := apiRefName(s.Ref)
		return fmt.Sprintf("[%s](#%s)", n, strings.ToLower(n))
	}
	switch s.Type {
	case "array":
		t := "[" + apiType(s.Items) + "]"
		if s.MaxItems != nil {
			t += fmt.Sprintf(" (at most %d)", *s.MaxItems)
		}
		return t
	case "object", "":
		if len(s.Properties) > 0 {
			var fields []string
			for _, k := range s.propertyOrder() {
				f := k
				if p := s.Properties[k]; p != nil && (p.Ref != "" || p.Type == "array") {
					f += ": " + apiType(p)
				}
				fields = append(fields, f)
			}
			return "{" + strings.Join(fields, ", ") + "}"
		}
		if s.Type == "" {
			return "any"
		}
		return "object"
	}
	t := s.Type
	if s.Format != "" {
		t += " (" + s.Format + ")"
	}
	var limits []string
	if len(s.Enum) > 0 {
		var vs []string
		for _, v := range s.Enum {
			vs = append(vs, fmt.Sprint(v))
		}
		limits = append(limits, "one of "+strings.Join(vs, ", "))
	}
	if s.Minimum != nil && s.Maximum != nil {
		limits = append(limits, fmt.Sprintf("%g–%g", *s.Minimum, *s.Maximum))
	}
	if s.MaxLength != nil {
		limits = append(limits, fmt.Sprintf("at most %d characters", *s.MaxLength))
	}
	if s.Pattern != "" {
		limits = append(limits, "`"+s.Pattern+"`")
	}
	if len(limits) > 0 {
		t += ": " + strings.Join(limits, "; ")
	}
	return t
}

// apiFieldRows renders an object schema's properties as table rows.
func apiFieldRows(s *apiSchema) string {
	req := map[string]bool{}
	for _, r := range s.Required {
		req[r] = true
	}
	var b strings.Builder
	for _, k := range s.propertyOrder() {
		p := s.Properties[k]
		name := "`" + k + "`"
		if req[k] {
			name += " (required)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", name, cell(apiType(p)), cell(p.Description))
	}
	return b.String()
}

func apiContentType(c map[string]apiMedia) (string, *apiSchema) {
	var types []string
	for t := range c {
		types = append(types, t)
	}
	sort.Strings(types)
	if len(types) == 0 {
		return "", nil
	}
	return types[0], c[types[0]].Schema
}

// apiReference renders the OpenAPI document as docs/reference/api.md.
func apiReference(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, openapiFile))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Info struct {
			Title, Description string
		} `json:"info"`
		Servers []struct {
			URL string `json:"url"`
		} `json:"servers"`
		Paths      json.RawMessage `json:"paths"`
		Components struct {
			Schemas json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", openapiFile, err)
	}
	var paths map[string]json.RawMessage
	if err := json.Unmarshal(doc.Paths, &paths); err != nil {
		t.Fatalf("%s: paths: %v", openapiFile, err)
	}
	type entry struct {
		method, path string
		op           apiOperation
	}
	var ops []entry
	for _, p := range orderedKeys(doc.Paths) {
		var byMethod map[string]apiOperation
		if err := json.Unmarshal(paths[p], &byMethod); err != nil {
			t.Fatalf("%s: %s: %v", openapiFile, p, err)
		}
		for _, m := range orderedKeys(paths[p]) {
			ops = append(ops, entry{strings.ToUpper(m), p, byMethod[m]})
		}
	}

	var b strings.Builder
	b.WriteString("# API reference\n\n")
	b.WriteString("Generated from the daemon's OpenAPI document by `make docs`; do not edit by hand.\n")
	b.WriteString("The guide is [../daemon.md](../daemon.md); a running daemon serves the\n")
	b.WriteString("document itself at `GET /api/openapi.json`.\n\n")
	b.WriteString(strings.TrimSpace(doc.Info.Description) + "\n")
	if len(doc.Servers) > 0 {
		fmt.Fprintf(&b, "\nDefault address: `%s` (`serve.addr`).\n", doc.Servers[0].URL)
	}
	b.WriteString("\n| method | path | who may call | what it does |\n| --- | --- | --- | --- |\n")
	for _, e := range ops {
		h := e.method + " " + e.path
		fmt.Fprintf(&b, "| %s | [`%s`](#%s) | %s | %s |\n", e.method, e.path, githubAnchor(h), apiAccess(e.path, &e.op), cell(e.op.Summary))
	}
	for _, e := range ops {
		op := &e.op
		fmt.Fprintf(&b, "\n## %s %s\n\n", e.method, e.path)
		b.WriteString(sentence(op.Summary) + "\n")
		if d := strings.TrimSpace(op.Description); d != "" {
			b.WriteString("\n" + d + "\n")
		}
		fmt.Fprintf(&b, "\nWho may call: %s.\n", apiAccess(e.path, op))
		if len(op.Parameters) > 0 {
			b.WriteString("\n| parameter | in | type | meaning |\n| --- | --- | --- | --- |\n")
			for _, p := range op.Parameters {
				name := "`" + p.Name + "`"
				if p.Required {
					name += " (required)"
				}
				fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", name, p.In, cell(apiType(p.Schema)), cell(p.Description))
			}
		}
		if rb := op.RequestBody; rb != nil {
			ct, s := apiContentType(rb.Content)
			opt := ""
			if !rb.Required {
				opt = " (optional)"
			}
			fmt.Fprintf(&b, "\nRequest body%s, `%s`: %s\n", opt, ct, apiType(s))
			if s != nil && s.Ref == "" && len(s.Properties) > 0 {
				b.WriteString("\n| field | type | meaning |\n| --- | --- | --- |\n" + apiFieldRows(s))
			}
		}
		codes := make([]string, 0, len(op.Responses))
		for c := range op.Responses {
			codes = append(codes, c)
		}
		sort.Strings(codes)
		b.WriteString("\n| status | answer |\n| --- | --- |\n")
		var errs []string
		for _, c := range codes {
			r := op.Responses[c]
			if r.Ref != "" {
				errs = append(errs, c)
				continue
			}
			ct, s := apiContentType(r.Content)
			ans := r.Description
			if s != nil {
				ans = apiType(s)
				if ct != "application/json" {
					ans += " (`" + ct + "`)"
				}
			}
			fmt.Fprintf(&b, "| %s | %s |\n", c, cell(ans))
		}
		if len(errs) > 0 {
			fmt.Fprintf(&b, "| %s | [Error](#error) |\n", strings.Join(errs, ", "))
		}
	}

	var schemas map[string]*apiSchema
	if err := json.Unmarshal(doc.Components.Schemas, &schemas); err != nil {
		t.Fatalf("%s: schemas: %v", openapiFile, err)
	}
	b.WriteString("\n## Schemas\n")
	for _, name := range orderedKeys(doc.Components.Schemas) {
		s := schemas[name]
		fmt.Fprintf(&b, "\n### %s\n\n", name)
		if d := strings.TrimSpace(s.Description); d != "" {
			b.WriteString(d + "\n\n")
		}
		b.WriteString("| field | type | meaning |\n| --- | --- | --- |\n" + apiFieldRows(s))
	}
	return b.String()
}

// githubAnchor is the id GitHub gives a heading: lower case, spaces to
// hyphens, punctuation other than hyphens and underscores dropped.
func githubAnchor(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// sentence capitalises s and ends it with a full stop.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}
