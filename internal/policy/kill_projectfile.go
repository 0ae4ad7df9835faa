package policy

import "strings"

// projectFileCommandLine: a pkill -f pattern that names a program together
// with a file of this project — its config or its script (pkill -f
// 'martin --config martin.yaml', 'hercules -f conf/mvs38j.cnf', 'nr-ue -c
// configs/ue1.yaml') — matches the process the developer started from this
// project, not every process of that program. The program must be a plain
// name that is not a broad runtime, a system process, a shared server or a
// shared job; the file a relative path (no /, ~, .., $ or regex wildcards)
// with a folder or an extension. `pkill -f python`, `pkill -f 'nginx -c
// /etc/nginx/nginx.conf'` and patterns with no such file keep their verdicts.
func projectFileCommandLine(p string) bool {
	toks := strings.Fields(p)
	if len(toks) < 2 || sharedJob(p) {
		return false
	}
	prog := strings.ToLower(toks[0])
	if strings.ContainsAny(prog, "/\\*^$[](){}|+?.~") || strings.HasPrefix(prog, "-") {
		return false
	}
	letters := 0
	for _, r := range prog {
		if r >= 'a' && r <= 'z' {
			letters++
		}
	}
	if letters < 2 || broadProcNames[prog] || systemProcesses[prog] || broadProcNames[strings.TrimRight(prog, "0123456789.")] {
		return false
	}
	for _, suf := range sharedSuffixes {
		if strings.HasSuffix(prog, suf) && !devProcName(prog) {
			return false
		}
	}
	for _, t := range toks[1:] {
		if i := strings.IndexByte(t, '='); i >= 0 && strings.HasPrefix(t, "-") {
			t = t[i+1:] // --config=dev.yaml
		}
		if projectRelFile(t) {
			return true
		}
	}
	return false
}

// projectRelFile: t reads as a file path relative to the project: a folder
// or an extension, no absolute, home, parent, variable or wildcard part.
func projectRelFile(t string) bool {
	if t == "" || strings.HasPrefix(t, "-") || strings.HasPrefix(t, "/") || strings.HasPrefix(t, "~") || strings.Contains(t, "..") ||
		strings.ContainsAny(t, "$*^[](){}|+?\\:@,") {
		return false
	}
	t = strings.TrimPrefix(t, "./")
	base := t[strings.LastIndexByte(t, '/')+1:]
	dot := strings.LastIndexByte(base, '.')
	if dot <= 0 || dot == len(base)-1 || len(base)-dot-1 > 6 {
		return strings.Contains(t, "/") && base != ""
	}
	for _, r := range base[dot+1:] {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
