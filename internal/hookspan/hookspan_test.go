package hookspan

import (
	"reflect"
	"testing"
	"time"
)

func TestRoundTrip(t *testing.T) {
	in := []Span{
		{Handler: "policy", Start: 12 * time.Microsecond, Duration: 340 * time.Microsecond, Verdict: "deny"},
		{Handler: "judge-pretool", Start: 400 * time.Microsecond, Duration: 2 * time.Second, Failed: true},
		{Handler: "odd:name;x", Start: 0, Duration: 0, Verdict: "allow"},
	}
	var b []byte
	for _, s := range in {
		b = Append(b, s)
	}
	if got := string(b); got != "policy:12:340:deny;judge-pretool:400:2000000::e;odd_name_x:0:0:allow" {
		t.Fatalf("encoded %q", got)
	}
	in[2].Handler = "odd_name_x"
	if got := Decode(string(b)); !reflect.DeepEqual(got, in) {
		t.Errorf("decoded %+v", got)
	}
	if got := Decode("broken;policy:1:2:allow;x:y:z:w;:1:2:3"); len(got) != 1 || got[0].Handler != "policy" {
		t.Errorf("entries that do not read must be left out: %+v", got)
	}
}
