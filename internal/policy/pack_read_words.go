package policy

import "strings"

// Read-only modes of tools that also change. A subcommand word
// whose part only shows or lists reads wherever it points, production
// too: django's showmigrations, samba-tool's listall, artisan's
// route:list, kubectl's port-forward (a tunnel to this machine). The
// words are data (remoteops.txt read-verb); a word that starts with
// show or list is one too (showmigrations, listall, list-tasks), as
// such names never change what they show.

// readsByWord: w's verb is a read: the word after its last colon
// (migrate:status, route:list; view:clear is a clear), else the word
// before its first dash (list-tasks, show-ref), or w starts with show
// or list.
func readsByWord(w string) bool {
	w = strings.ToLower(w)
	if i := strings.LastIndexByte(w, ':'); i >= 0 {
		w = w[i+1:]
	}
	if strings.HasPrefix(w, "show") || strings.HasPrefix(w, "list") {
		return true
	}
	read := opsList("read-verb")
	head, _, _ := strings.Cut(w, "-")
	return read[w] || read[head]
}
