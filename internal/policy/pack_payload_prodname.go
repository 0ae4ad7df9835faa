package policy

import "strings"

// A one-liner's code names production in two harmless ways: inside the
// path of a local file it reads (open('/tmp/prod.yaml')), and as the
// target of calls that only read (HfApi().model_info('acme/prod-model'),
// client.describe_table('orders-prod')). Production named anywhere else,
// or with any call that is not a read (configure_index('search-prod')),
// is a change aimed at production.

var (
	codeString = re(`'[^'\n]*'|"[^"\n]*"`)
	codeCall   = re(`\.([A-Za-z_][A-Za-z0-9_]*)\s*\(`)
)

// payloadChangesProd: code names production outside local file paths and
// makes a call that is not a read.
func payloadChangesProd(code string) bool {
	rest := codeString.ReplaceAllStringFunc(code, func(q string) string {
		if localFileLiteral(q[1 : len(q)-1]) {
			return `""`
		}
		return q
	})
	if !prodWord.MatchString(rest) {
		return false
	}
	calls := codeCall.FindAllStringSubmatch(rest, -1)
	if len(calls) == 0 {
		return true
	}
	for _, m := range calls {
		if !readCallName(m[1]) {
			return true
		}
	}
	return false
}

// localFileLiteral: s is the path of a file on this machine (/tmp/x,
// ./conf/prod.yaml, ~/x, data/prod.json), not a URL or a resource id.
func localFileLiteral(s string) bool {
	if strings.Contains(s, "://") || strings.ContainsAny(s, " \t") {
		return false
	}
	if strings.HasPrefix(s, "/") || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") || strings.HasPrefix(s, "~/") {
		return true
	}
	i := strings.LastIndexByte(s, '.')
	switch strings.ToLower(s[i+1:]) {
	case "yaml", "yml", "json", "toml", "ini", "cfg", "conf", "csv", "tsv", "txt", "log", "xml", "env", "tfvars", "properties", "parquet", "jsonl", "ndjson":
		return i > 0
	}
	return false
}

// readCallName: a method named for reading (get, list, describe, show,
// info, read, load, search, count, exists, print, dump to text), a
// string or container method (lower, split, items, append), or an SDK
// client's constructor.
func readCallName(n string) bool {
	l := strings.ToLower(n)
	for _, p := range []string{"get", "list", "describe", "show", "info", "read", "load", "safe_load", "search", "count", "exists", "head", "stat", "print", "format", "dumps", "find", "query_", "iter", "keys", "values", "items", "lower", "upper", "strip", "split", "join", "replace", "startswith", "endswith", "append", "sort", "encode", "decode", "parse", "to_", "as_", "fetchone", "fetchall", "cursor", "from", "model_info", "dataset_info", "space_info", "repo_info", "whoami", "log", "debug", "json", "text",
		"client", "resource", "session", "connect"} { // an SDK's constructors {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return strings.HasSuffix(l, "_info") || strings.HasSuffix(l, "info")
}
