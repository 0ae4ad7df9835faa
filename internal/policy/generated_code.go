package policy

import (
	"slices"
	"strings"
)

// Code generators mark what they write with a suffix of their own: Dart's
// build_runner (*.g.dart, *.freezed.dart), protoc (*.pb.go, *_pb2.py),
// Kubernetes' deepcopy-gen (zz_generated.*), the *.generated.* of many.
// A find that deletes files by such a pattern deletes generated code the
// generator writes again (dart run build_runner build), not source.
var generatedCodeSuffixes = []string{".g.dart", ".freezed.dart", ".gr.dart", ".mocks.dart", ".pb.go", ".pb.gw.go", "_grpc.pb.go",
	"_pb2.py", "_pb2_grpc.py", "_pb2.pyi", ".pb.cc", ".pb.h", "_pb.js", "_pb.d.ts", "_grpc_pb.js", "_pb.ts", ".pb.swift", ".grpc.swift",
	".pb.rs", "_generated.go", ".gen.go"}

// generatedCodePattern: a glob that selects only files a code generator
// marks as its own: * then one of the suffixes (*.g.dart), or a name
// that says so (*.generated.*, zz_generated.*).
func generatedCodePattern(b string) bool {
	if strings.Contains(b, ".generated.") || strings.HasPrefix(b, "zz_generated.") {
		return !strings.ContainsAny(strings.TrimSuffix(b, "*"), "[?") // *.generated.ts, *.generated.*
	}
	rest, ok := strings.CutPrefix(b, "*")
	if !ok || strings.ContainsAny(rest, "*?[") {
		return false
	}
	for _, s := range generatedCodeSuffixes {
		if rest == s {
			return true
		}
	}
	return false
}

// findOnlyLinks: a find whose tests hold only for symbolic links (-type
// l, not negated, no -o): deleting what it selects removes the links
// (nix's result*, stale venv links), not the files they name.
func findOnlyLinks(c *Cmd) bool {
	if c.Name != "find" || slices.Contains(c.Args, "-o") || slices.Contains(c.Args, "-or") {
		return false
	}
	for i, a := range c.Args {
		if (a == "-type" || a == "-xtype") && i+1 < len(c.Args) && c.Args[i+1] == "l" {
			return i == 0 || c.Args[i-1] != "!" && c.Args[i-1] != "-not"
		}
	}
	return false
}

// viaLinkFind: the touch comes from a find that deletes only links: the
// starting directory is not deleted with them.
func viaLinkFind(e *Env, via string) bool {
	if !strings.HasPrefix(via, "find ") {
		return false
	}
	for _, c := range e.F.Cmds("find") {
		if c.String() == via && findOnlyLinks(c) {
			return true
		}
	}
	return false
}
