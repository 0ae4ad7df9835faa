package hookwire

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	for _, r := range []*Request{
		{Args: []string{"--harness", "claude"}, Cwd: "/work/p", Environ: []string{"HOME=/root", "A=b=c", "EMPTY="}, Umask: 0o22, CwdDev: 2049, CwdIno: 1 << 40},
		{Cwd: "/", Umask: -1},
		{Args: []string{"PreToolUse"}, Cwd: "/tmp/with space", Environ: []string{"X=" + strings.Repeat("y", 70000)}, Umask: 0o77},
	} {
		got, err := Decode(r.Encode())
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, r) {
			t.Fatalf("round trip: got %+v, want %+v", got, r)
		}
	}
}

// TestDecodeAsksForMore: every strict prefix of a request is ErrShort, so
// the keeper reads on; a stream socket may deliver a request in pieces.
func TestDecodeAsksForMore(t *testing.T) {
	b := (&Request{Args: []string{"a"}, Cwd: "/c", Environ: []string{"K=v"}}).Encode()
	for i := 0; i < len(b); i++ {
		if _, err := Decode(b[:i]); !errors.Is(err, ErrShort) {
			t.Fatalf("prefix of %d bytes: %v, want ErrShort", i, err)
		}
	}
}

func TestDecodeRefuses(t *testing.T) {
	good := (&Request{Cwd: "/"}).Encode()
	huge := []byte(Magic + "\xff\xff\xff\xff")
	for name, b := range map[string][]byte{
		"other protocol":  []byte("GET / HTTP/1.1\r\n"),
		"other version":   []byte("WDNH9" + string(good[len(Magic):])),
		"oversized field": huge,
		"trailing bytes":  append(append([]byte{}, good...), 'x'),
		"garbage facts":   []byte(Magic + "\x00\x00\x00\x00\x00\x00\x00\x01/\x00\x00\x00\x00\x00\x00\x00\x03a,b"),
	} {
		if _, err := Decode(b); err == nil || errors.Is(err, ErrShort) {
			t.Errorf("%s: %v, want a refusal", name, err)
		}
	}
}

func TestGetenvFirstWins(t *testing.T) {
	env := []string{"A=1", "B=", "A=2", "NOEQUALS"}
	if Getenv(env, "A") != "1" || Getenv(env, "B") != "" || Getenv(env, "C") != "" || Getenv(env, "NOEQUALS") != "" {
		t.Fatal("Getenv does not match os.Getenv's rules")
	}
}
