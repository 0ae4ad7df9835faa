package statusline

import (
	"bytes"
	"strings"
	"testing"
)

func TestRender(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"model and integer percent", `{"model":{"id":"claude-opus-4","display_name":"Opus"},"context_window":{"used_percentage":8}}`, "[Opus] ctx 8%"},
		{"fraction", `{"model":{"display_name":"Sonnet"},"context_window":{"used_percentage":0.74}}`, "[Sonnet] ctx 74%"},
		{"null early", `{"model":{"display_name":"Opus"},"context_window":{"used_percentage":null}}`, "[Opus]"},
		{"id when no display name", `{"model":{"id":"claude-x"}}`, "[claude-x]"},
		{"over 100 capped", `{"context_window":{"used_percentage":140}}`, "ctx 100%"},
		{"garbage", `not json`, "warden"},
		{"empty", ``, "warden"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Render([]byte(tt.in)); got != tt.want {
				t.Errorf("Render = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestWrapRunsOldCommandFirst(t *testing.T) {
	var out bytes.Buffer
	Run(strings.NewReader(`{"model":{"display_name":"Opus"}}`), &out, Options{Wrap: `cat >/dev/null; printf 'old line\n'`})
	if got := out.String(); got != "old line │ [Opus]\n" {
		t.Errorf("got %q", got)
	}
}

func TestWrapFailureStillRenders(t *testing.T) {
	var out bytes.Buffer
	Run(strings.NewReader(`{"model":{"display_name":"Opus"}}`), &out, Options{Wrap: "exit 3"})
	if got := out.String(); got != "[Opus]\n" {
		t.Errorf("got %q", got)
	}
	out.Reset()
	Run(strings.NewReader(`{}`), &out, Options{Wrap: "sleep 5", WrapTimeout: 100e6})
	if got := out.String(); got != "warden\n" {
		t.Errorf("timed-out wrap: got %q", got)
	}
}
