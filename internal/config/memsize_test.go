package config

import (
	"strings"
	"testing"
)

func TestMemoryBytes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want uint64
		err  string
	}{
		{"", 0, ""}, {"infinity", 0, ""}, {"1048576", 1 << 20, ""}, {"512M", 512 << 20, ""}, {"4G", 4 << 30, ""},
		{"2k", 2048, ""}, {"1T", 1 << 40, ""}, {"25%", 1 << 30, ""}, {" 64M ", 64 << 20, ""},
		{"0", 0, "not a memory size"}, {"4GB", 0, "not a memory size"}, {"-1G", 0, "not a memory size"},
		{"lots", 0, "not a memory size"}, {"150%", 0, "not a percentage"}, {"0%", 0, "not a percentage"},
		{"99999999999T", 0, "not a memory size"},
	} {
		got, err := MemoryBytes(tc.in, 4<<30)
		if tc.err == "" && (err != nil || got != tc.want) || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("MemoryBytes(%q) = %d, %v; want %d, %q", tc.in, got, err, tc.want, tc.err)
		}
		if tc.err != "" && !strings.Contains(CheckMemoryMax(tc.in), "512M, 4G") {
			t.Errorf("CheckMemoryMax(%q) = %q, want the fix", tc.in, CheckMemoryMax(tc.in))
		}
	}
}
