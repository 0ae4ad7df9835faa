package callfacts

import "testing"

func TestLoopbackAddr(t *testing.T) {
	for h, want := range map[string]bool{
		"127.0.0.1": true, "127.1.2.3": true, "::1": true, "[::1]": true,
		"127.0.0.1.evil.example": false, "localhost": false, "10.0.0.1": false,
		"x.io": false, "": false, "::ffff:8.8.8.8": false,
	} {
		if got := LoopbackAddr(h); got != want {
			t.Errorf("LoopbackAddr(%q) = %v, want %v", h, got, want)
		}
	}
}
