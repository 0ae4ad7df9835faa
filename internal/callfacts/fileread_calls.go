package callfacts

import "strings"

// fileReadWords are the file-read calls of the common interpreters whose
// names hold neither "open" nor "read": PHP file_get_contents / file(),
// Perl's slurp and <$fh>, R's scan and readRDS (read), Ruby's IO.binread
// (read), Kotlin/Groovy's .text, PowerShell's Get-Content, Lua's io.lines,
// Tcl's fconfigure, Node's fs.promises.readFile (read). A path built from
// home that such a call takes is a file the code reads, judged like
// `cat` of the same file.
var fileReadWords = []string{"open", "read", "Read", "_contents", "slurp", "Get-Content", "gc ", "io.lines", "File.foreach", "file(", ".text", "scan(", "load(", "fromfile", "loadtxt", "copy(", "Copy("}

// fileReadCall: the payload calls something that reads (or copies) a file.
func fileReadCall(payload string) bool {
	for _, w := range fileReadWords {
		if strings.Contains(payload, w) {
			return true
		}
	}
	return false
}
