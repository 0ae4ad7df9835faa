package config

import (
	"slices"
	"strings"
	"testing"
)

// TestRegistry checks every row of the real registry (and the test one) is
// consistent, so a new key cannot be added half-way.
func TestRegistry(t *testing.T) {
	for _, reg := range [][]Key{keys, policyKeys} {
		checkRegistry(t, reg)
	}
}

func checkRegistry(t *testing.T, reg []Key) {
	t.Helper()
	seen := map[string]bool{}
	c := &Config{}
	for i := range reg {
		k := &reg[i]
		if k.Name == "" || strings.Trim(k.Name, "abcdefghijklmnopqrstuvwxyz0123456789_.") != "" ||
			strings.HasPrefix(k.Name, ".") || strings.HasSuffix(k.Name, ".") || strings.Contains(k.Name, "..") {
			t.Errorf("key %q: name must be lower-case bare TOML keys joined by dots", k.Name)
		}
		if seen[k.Name] {
			t.Errorf("key %s defined twice", k.Name)
		}
		seen[k.Name] = true
		if isTable(reg, k.Name) {
			t.Errorf("key %s is also a table of another key", k.Name)
		}
		if k.Doc == "" {
			t.Errorf("key %s has no doc", k.Name)
		}
		if k.Field == nil {
			t.Errorf("key %s has no field", k.Name)
			continue
		}
		if !slices.Contains(Policies(), k.Policy) {
			t.Errorf("key %s has an unknown policy %d", k.Name, k.Policy)
		}
		var fieldOK, defaultOK bool
		switch k.Field(c).(type) {
		case *int:
			fieldOK = k.Kind == Int
			_, defaultOK = k.Default.(int)
		case *float64:
			fieldOK = k.Kind == Float
			_, defaultOK = k.Default.(float64)
		case *bool:
			fieldOK = k.Kind == Bool
			_, defaultOK = k.Default.(bool)
		case *string:
			fieldOK = k.Kind == String
			_, defaultOK = k.Default.(string)
		case *[]string:
			fieldOK = k.Kind == Strings
			_, defaultOK = k.Default.([]string)
		}
		if !fieldOK || !defaultOK {
			t.Errorf("key %s: kind %s, field %T and default %T do not agree", k.Name, k.Kind, k.Field(c), k.Default)
			continue
		}
		if (k.Policy == RaiseOnly || k.Policy == LowerOnly) && k.Kind != Int && k.Kind != Float {
			t.Errorf("key %s: %s needs a number", k.Name, k.Policy)
		}
		if k.Policy == EnableOnly && k.Kind != Bool {
			t.Errorf("key %s: enable-only needs a bool", k.Name)
		}
		if k.Policy == UnionOnly && k.Kind != Strings {
			t.Errorf("key %s: union-only needs a list", k.Name)
		}
		// The default must pass the key's own validation, written as TOML.
		if _, msg := convert(k, tomlValue(k.Default)); msg != "" {
			t.Errorf("key %s: default is invalid: %s", k.Name, msg)
		}
	}
}

// tomlValue turns a Go default into what the TOML decoder would produce.
func tomlValue(v any) any {
	switch v := v.(type) {
	case int:
		return int64(v)
	case []string:
		out := make([]any, len(v))
		for i, s := range v {
			out[i] = s
		}
		return out
	}
	return v
}

func TestKeyDescriptions(t *testing.T) {
	tests := []struct {
		key           string
		rng, def, exp string
	}{
		{"retention_days", "1..3650", "60", "a whole number of days"},
		{"capture", "true or false", "false", "true or false"},
		{"disabled_handlers", "any", "[]", `a list of strings like ["a", "b"]`},
		{"context.threshold", "1..100", "70", "a whole-number percentage"},
	}
	for _, tt := range tests {
		i := slices.IndexFunc(keys, func(k Key) bool { return k.Name == tt.key })
		if i < 0 {
			t.Fatalf("no key %s", tt.key)
		}
		k := &keys[i]
		if k.Range() != tt.rng || k.DefaultString() != tt.def || k.expect() != tt.exp {
			t.Errorf("%s: Range %q DefaultString %q expect %q", tt.key, k.Range(), k.DefaultString(), k.expect())
		}
	}
	s := Key{Name: "mode", Kind: String, Default: "deny", Allowed: []string{"deny", "warn"}}
	if s.Range() != "one of deny, warn" || s.expect() != `one of "deny", "warn"` {
		t.Errorf("string key: %q %q", s.Range(), s.expect())
	}
	if _, msg := convert(&s, "allow"); msg != `mode = "allow" is not allowed; set it to one of "deny", "warn", default "deny"` {
		t.Errorf("not allowed: %q", msg)
	}
}

func TestPolicyDocs(t *testing.T) {
	for _, p := range Policies() {
		if p.String() == "unknown" || p.Rule() == "" {
			t.Errorf("policy %d is not documented", p)
		}
	}
}
