package redact

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	tests := []struct{ name, in, gone, keep string }{
		{"anthropic key", "ANTHROPIC_API_KEY=sk-ant-api03-AbCdEf123456_xyz", "AbCdEf123456", "ANTHROPIC_API_KEY="},
		{"github token", "git clone https://ghp_abcdefghijklmnopqrstuvwxyz0123@github.com/x", "ghp_abcdefghij", "github.com/x"},
		{"aws id", "aws configure set aws_access_key_id AKIAABCDEFGHIJKLMNOP", "AKIAABCDEFGHIJKLMNOP", "aws configure"},
		{"private key", "-----BEGIN RSA PRIVATE KEY-----\nMIIEabc\n-----END RSA PRIVATE KEY-----", "MIIEabc", ""},
		{"password assignment", `mysql -u root --password=hunter2222`, "hunter2222", "--password="},
		{"json field", `{"password": "hunter2222"}`, "hunter2222", `"password"`},
		{"fine-grained github token", "GH=github_pat_11ABCDEFG0123456789abcdef", "11ABCDEFG0123456789", "GH="},
		{"jwt", "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijklmnop", "eyJzdWIiOiIxMjM0", "Bearer"},
		{"nothing secret", "ls -la /tmp", "", "ls -la /tmp"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := String(tt.in)
			if tt.gone != "" && strings.Contains(got, tt.gone) {
				t.Errorf("secret kept: %q", got)
			}
			if !strings.Contains(got, tt.keep) {
				t.Errorf("lost non-secret text %q: %q", tt.keep, got)
			}
		})
	}
}

func TestJSONStaysValid(t *testing.T) {
	in := `{"tool_input":{"command":"export API_KEY=abcd1234efgh; curl -H \"x-api-key: sk-ant-api03-zzzzzzzzzzzz\" x","content":"-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----"}}`
	if !json.Valid([]byte(in)) {
		t.Fatal("bad fixture")
	}
	out := String(in)
	if !json.Valid([]byte(out)) {
		t.Errorf("redaction broke the JSON: %s", out)
	}
	if strings.Contains(out, "zzzzzzzz") || strings.Contains(out, "abcd1234") {
		t.Errorf("secret kept: %s", out)
	}
}
