package mcp

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"testing"
)

// Every tool is listed with an object input schema, an output schema, a
// description, and the arguments it documents.
func TestToolListingAndSchemas(t *testing.T) {
	e := newEnv(t, nil)
	cs := e.connect(t, Options{})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	props := map[string][]string{}
	for _, tool := range res.Tools {
		if tool.Description == "" {
			t.Errorf("%s has no description", tool.Name)
		}
		in, _ := json.Marshal(tool.InputSchema)
		var schema struct {
			Type       string                    `json:"type"`
			Properties map[string]map[string]any `json:"properties"`
			Required   []string                  `json:"required"`
		}
		if err := json.Unmarshal(in, &schema); err != nil || schema.Type != "object" {
			t.Errorf("%s input schema %s: want type object", tool.Name, in)
		}
		var names []string
		for p, s := range schema.Properties {
			names = append(names, p)
			if s["description"] == nil {
				t.Errorf("%s.%s has no description", tool.Name, p)
			}
		}
		sort.Strings(names)
		props[tool.Name] = names
		out, _ := json.Marshal(tool.OutputSchema)
		if tool.OutputSchema == nil || !strings.Contains(string(out), `"properties"`) {
			t.Errorf("%s has no structured output schema: %s", tool.Name, out)
		}
	}
	want := map[string]string{
		"check":           "timeout_seconds",
		"confirm":         "base skip_check staged",
		"commit":          "message skip_check",
		"push":            "remote",
		"validate_intent": "session_id transcript_path",
		"status":          "",
		"pace":            "",
		"usage":           "report since",
		"events":          "event limit session since",
		"explain":         "command",
	}
	if len(props) != len(want) {
		t.Errorf("tools %v, want exactly %d", props, len(want))
	}
	for name, p := range want {
		got, ok := props[name]
		if !ok {
			t.Errorf("tool %s is missing", name)
			continue
		}
		if strings.Join(got, " ") != p {
			t.Errorf("%s arguments %v, want %q", name, got, p)
		}
	}
}

// Bad arguments are MCP errors that name the argument, from the schema
// (wrong type, unknown argument) and from the handlers' own checks.
func TestInvalidArgumentsNameTheArgument(t *testing.T) {
	e := newEnv(t, nil)
	cs := e.connect(t, Options{})
	cases := []struct {
		tool string
		args map[string]any
		arg  string
	}{
		{"events", map[string]any{"limit": 1000}, "limit"},
		{"events", map[string]any{"limit": "ten"}, "limit"},
		{"events", map[string]any{"since": "yesterday"}, "since"},
		{"events", map[string]any{"event": "Pre Tool"}, "event"},
		{"usage", map[string]any{"report": "hourly"}, "report"},
		{"usage", map[string]any{"since": "last week"}, "since"},
		{"explain", map[string]any{"command": "  "}, "command"},
		{"explain", map[string]any{}, "command"},
		{"check", map[string]any{"timeout_seconds": -5}, "timeout_seconds"},
		{"confirm", map[string]any{"base": "no-such-branch"}, "base"},
		{"confirm", map[string]any{"base": "--output=/tmp/x"}, "base"},
		{"confirm", map[string]any{"base": "main", "staged": true}, "staged"},
		{"confirm", map[string]any{"bogus": 1}, "bogus"},
		{"commit", map[string]any{"message": "added stuff"}, "message"},
		{"push", map[string]any{"remote": "upstream"}, "remote"},
		{"push", map[string]any{"remote": "-f"}, "remote"},
		{"validate_intent", map[string]any{"session_id": "../../etc/passwd"}, "session_id"},
		{"validate_intent", map[string]any{"transcript_path": "/nonexistent.jsonl"}, "transcript_path"},
	}
	for _, c := range cases {
		wantArgError(t, cs, c.tool, c.args, c.arg)
	}
	// Nothing was committed or staged by any of them.
	if got := gitOut(t, e.dir, "log", "--oneline"); strings.Count(got, "\n") != 1 {
		t.Errorf("history changed: %q", got)
	}
}

// Outside a git repository the git tools say so; check runs from the
// repository's top even when started in a subdirectory.
func TestOutsideRepoAndSubdirectory(t *testing.T) {
	e := newEnv(t, nil)
	cs := e.connect(t, Options{Dir: t.TempDir()})
	for _, tool := range []string{"confirm", "commit", "push"} {
		res, err := callErr(cs, tool, nil)
		if err != nil || !res.IsError || !strings.Contains(resultText(res), "is not inside a git repository") {
			t.Errorf("%s outside a repository: %v %s", tool, err, resultText(res))
		}
	}
	write(t, e.dir, "Makefile", "test:\n\t@test -f main.go\n")
	write(t, e.dir, "sub/x.txt", "x\n")
	cs = e.connect(t, Options{Dir: e.dir + "/sub"})
	var out CheckOut
	call(t, cs, "check", nil, &out)
	if !out.Passed || len(out.Commands) != 1 || out.Commands[0].Command != "make test" {
		t.Errorf("check from a subdirectory: %+v", out)
	}
}
