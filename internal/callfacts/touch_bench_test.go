package callfacts

import "testing"

// BenchmarkTouches: the zone rules read every call's effects on paths;
// an everyday line and a delete must stay cheap.
func BenchmarkTouches(b *testing.B) {
	facts := []*Facts{bash("go test ./... | tee out.log"), bash("rm -rf ./build dist"), bash("ls -la")}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		facts[i%len(facts)].Touches()
	}
}
