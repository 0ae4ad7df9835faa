package policy

import (
	"fmt"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
	"github.com/warden-dev/warden/internal/redact"
)

var fileTools = []string{"Write", "Edit", "MultiEdit", "NotebookEdit"}

// dataExt are files whose length is not a code-quality question.
var dataExt = map[string]bool{".json": true, ".csv": true, ".tsv": true, ".svg": true, ".lock": true, ".sum": true,
	".txt": true, ".log": true, ".snap": true, ".golden": true, ".xml": true, ".geojson": true, ".ndjson": true, ".jsonl": true}

// resultLines estimates the line count of the file after the call: the
// content of a Write; for an Edit the file on disk adjusted by the edit.
func resultLines(f *Facts) int {
	if f.Tool == "Write" {
		return f.Lines
	}
	if f.FilePath == "" || (f.Tool != "Edit" && f.Tool != "MultiEdit") {
		return 0
	}
	b, err := os.ReadFile(f.FilePath)
	if err != nil {
		return 0
	}
	old, _ := f.Input["old_string"].(string)
	n := callfacts.CountLines(string(b)) - strings.Count(old, "\n") + strings.Count(f.Content, "\n")
	if all, _ := f.Input["replace_all"].(bool); all && old != "" {
		k := strings.Count(string(b), old)
		n = callfacts.CountLines(string(b)) + k*(strings.Count(f.Content, "\n")-strings.Count(old, "\n"))
	}
	return n
}

func sizeRule(id string, mode Mode, desc string, limit func(o *Options) int, catch, allow []string) Rule {
	return Rule{ID: id, Mode: mode, Desc: desc, Tools: fileTools, Catch: catch, Allow: allow,
		Match: func(e *Env) string {
			if dataExt[path.Ext(e.F.FilePath)] || lockfiles[path.Base(e.F.FilePath)] || strings.Contains(e.F.FilePath, "/testdata/") {
				return ""
			}
			max := limit(e.Opts)
			if n := resultLines(e.F); max > 0 && n > max {
				return fmt.Sprintf("%s would have %d lines (limit %d); split it into smaller files", homeRel(e.F.FilePath, e.F.Home), n, max)
			}
			return ""
		}}
}

// bigWrite is a test input for a Write of n lines; CaseCall expands it
// (a literal would cost every hook process the strings at start-up).
func bigWrite(file string, n int) string { return "@write " + file + " " + strconv.Itoa(n) }

func sizePack() Pack {
	return Pack{Name: "core.size", Desc: "File size: warn when a written file exceeds policy.max_lines_warn (500) lines, deny above policy.max_lines_deny (800)", Rules: []Rule{
		sizeRule("core.size:warn-lines", Warn, "A written file longer than policy.max_lines_warn lines", func(o *Options) int { return or(o.MaxLinesWarn, 500) },
			[]string{bigWrite("main.go", 501), bigWrite("/home/dev/proj/a.py", 650), bigWrite("src/x.ts", 900)},
			[]string{bigWrite("main.go", 500), bigWrite("data.json", 2000), bigWrite("a.go", 10), bigWrite("internal/x/testdata/big.go", 700)}),
		sizeRule("core.size:max-lines", Deny, "A written file longer than policy.max_lines_deny lines", func(o *Options) int { return or(o.MaxLinesDeny, 800) },
			[]string{bigWrite("main.go", 801), bigWrite("lib/big.rs", 1500), bigWrite("/home/dev/proj/app.js", 5000)},
			[]string{bigWrite("main.go", 800), bigWrite("main.go", 600), bigWrite("fixtures.csv", 9000), bigWrite("go.sum", 900)}),
	}}
}

func or(v, d int) int {
	if v == 0 {
		return d
	}
	return v
}

// secret patterns: (name, regexp). Compiled on first use.
// hint is a literal every match contains: the regexp runs only when the
// text has it (most commands have none, and ten regexps cost more than
// the rest of an evaluation).
var secretPatterns = []struct {
	name, hint string
	re         *lazyRE
}{
	{"a private key", "PRIVATE KEY", re(`-----BEGIN ((RSA|EC|DSA|OPENSSH|ENCRYPTED|PGP) )?PRIVATE KEY( BLOCK)?-----`)},
	{"an AWS access key id", "A", re(`\b(AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b`)},
	{"an AWS secret access key", "", re(`(?i)aws_?secret_?access_?key["']?\s*[:=]\s*["']?[A-Za-z0-9/+=]{40}\b`)},
	{"a Google API key", "AIza", re(`\bAIza[0-9A-Za-z_\-]{35}\b`)},
	{"a GitHub token", "_", re(`\b(gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{60,})\b`)},
	{"an Anthropic API key", "sk-ant-", re(`\bsk-ant-[A-Za-z0-9_\-]{20,}`)},
	{"an OpenAI API key", "sk-", re(`\bsk-(proj-)?[A-Za-z0-9]{32,}`)},
	{"a Slack token", "xox", re(`\bxox[baprs]-[0-9A-Za-z\-]{10,}`)},
	{"a Stripe live key", "_live_", re(`\b(sk|rk)_live_[0-9A-Za-z]{20,}`)},
	{"a Google service-account key", "private_key_id", re(`"private_key_id"\s*:\s*"[0-9a-f]{40}"`)},
}

// mayHold is the cheap check before a secret pattern's regexp.
func mayHold(text, hint string, i int) bool {
	switch {
	case i == 2: // the AWS secret key: case-insensitive name
		return strings.Contains(text, "ecret") || strings.Contains(text, "ECRET")
	case i == 1:
		return strings.Contains(text, "AKIA") || strings.Contains(text, "ASIA") || strings.Contains(text, "AGPA") || strings.Contains(text, "AIDA") || strings.Contains(text, "AROA")
	}
	return strings.Contains(text, hint)
}

// placeholder reports whether a match is a documented example, not a key.
func placeholder(m string) bool {
	u := strings.ToUpper(m)
	return strings.Contains(u, "EXAMPLE") || strings.Contains(u, "XXXX") || strings.Contains(u, "DUMMY") || strings.Contains(u, "FAKE")
}

// writtenText is what a call writes: file-tool content, or for the shell
// the command text when it writes somewhere (redirect, tee, heredoc).
func writtenText(f *Facts) string {
	if f.Content != "" {
		return f.Content
	}
	if f.Command != "" && anyWrites(f) {
		return f.Command
	}
	return ""
}

func secretsPack() Pack {
	return Pack{Name: "core.secrets", Desc: "Secrets in written content: private keys, cloud and API keys (the match is redacted in the reason)", Rules: append([]Rule{
		{
			ID: "core.secrets:in-content", Mode: Deny,
			Desc: "A private key or an API/cloud key written into a file",
			Match: func(e *Env) string {
				text := writtenText(e.F)
				if text == "" || len(text) > 2<<20 {
					return ""
				}
				for i, p := range secretPatterns {
					if !mayHold(text, p.hint, i) {
						continue
					}
					if m := p.re.FindString(text); m != "" && !placeholder(m) {
						line := strings.Count(text[:strings.Index(text, m)], "\n") + 1
						return fmt.Sprintf("the content contains %s on line %d (%s); keep secrets in the environment or a secret store", p.name, line, mask(m))
					}
				}
				return ""
			},
			Catch: []string{`{"tool_name":"Write","tool_input":{"file_path":"k.pem","content":"-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\n"}}`,
				`{"tool_name":"Edit","tool_input":{"file_path":"cfg.py","old_string":"KEY = ''","new_string":"KEY = 'AKIAQWERTYUIOPASDFGH'"}}`,
				`{"tool_name":"Write","tool_input":{"file_path":"a.js","content":"const t = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB'"}}`,
				"echo 'ANTHROPIC_API_KEY=sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123' > config.sh",
				`{"tool_name":"Write","tool_input":{"file_path":"s.rb","content":"Stripe.api_key = 'sk_live_abcdefghijklmnopqrstuvwx'"}}`},
			Allow: []string{`{"tool_name":"Write","tool_input":{"file_path":"doc.md","content":"aws key AKIAIOSFODNN7EXAMPLE"}}`,
				`{"tool_name":"Write","tool_input":{"file_path":"a.go","content":"key := os.Getenv(\"API_KEY\")"}}`,
				"echo 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB'", `{"tool_name":"Write","tool_input":{"file_path":"a.py","content":"# BEGIN PRIVATE KEY handling\n"}}`},
		},
	}, slices.Concat(leakRules(), []Rule{metadataRule(), findPickReadRule()}, credentialFileRules(), infraSecretRules(), []Rule{secretToFetchedPackageRule(), pushSecretFileRule()}, secretLeavingRules(), shareLinkRules(), keyMaterialRules(), []Rule{streamToSocketRule()}, keyRecordRules(), containerCredentialRules(), recordsSentRules(), publishPublicRules(), []Rule{decryptOutRule()}, typedSecretRules(), []Rule{grepSecretTreeRule()}, secretSourceRules(), []Rule{secretNamedAnywhereRule(), prodConfigPrintRule(), toolSecretFileRule(), secretVarPathRule(), envFieldPrintRule()})...)}
}

// mask shows a secret's kind without the secret: a short prefix and its
// length, passed through redact for good measure.
func mask(m string) string {
	first := strings.SplitN(m, "\n", 2)[0]
	keep := 4
	if strings.HasPrefix(first, "-----") {
		return redact.String(first)
	}
	if len(first) < keep {
		keep = len(first)
	}
	return fmt.Sprintf("%s… [REDACTED, %d chars]", first[:keep], len(m))
}
