// Package redact removes secrets from text before warden stores it (raw hook
// inputs with capture = true). It errs on the side of removing too much.
package redact

import (
	"regexp"
	"strings"
	"sync"
)

var (
	once     sync.Once
	patterns []*regexp.Regexp
)

// compiled lazily: capture is off by default and the hook hot path must not
// pay for regexp compilation it does not use.
func compile() {
	for _, p := range []string{
		`sk-ant-[A-Za-z0-9_\-]{8,}`,                                        // Anthropic keys
		`sk-(?:proj-)?[A-Za-z0-9_\-]{20,}`,                                 // OpenAI-style keys
		`gh[pousr]_[A-Za-z0-9]{20,}`,                                       // GitHub tokens
		`github_pat_[A-Za-z0-9_]{20,}`,                                     // GitHub fine-grained tokens
		`xox[baprs]-[A-Za-z0-9\-]{10,}`,                                    // Slack tokens
		`AKIA[0-9A-Z]{16}`,                                                 // AWS access key ids
		`AIza[0-9A-Za-z_\-]{35}`,                                           // Google API keys
		`eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}`, // JWTs
		`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----`,
		`(?i)(?:password|passwd|secret|token|api[_-]?key)(\\?["']?\s*[:=]\s*\\?["']?)[^\s"'\\]{4,}`,
	} {
		patterns = append(patterns, regexp.MustCompile(p))
	}
}

// hints are lower-case substrings at least one of which every pattern's
// match contains: text with none of them holds no secret the patterns
// would find, and is returned without compiling or running them (every
// tool call a hook records passes here).
var hints = []string{"sk-", "gh", "github_pat_", "xox", "akia", "aiza", "eyj", "-----begin",
	"password", "passwd", "secret", "token", "api_key", "api-key", "apikey"}

func mayHoldSecret(s string) bool {
	l := strings.ToLower(s)
	for _, h := range hints {
		if strings.Contains(l, h) {
			return true
		}
	}
	return false
}

// String returns s with every recognised secret replaced by [REDACTED].
func String(s string) string {
	if !mayHoldSecret(s) {
		return s
	}
	once.Do(compile)
	for i, re := range patterns {
		if i == len(patterns)-1 {
			// keep the key name and separator, drop the value
			s = re.ReplaceAllStringFunc(s, func(m string) string {
				loc := re.FindStringSubmatchIndex(m)
				return m[:loc[3]] + "[REDACTED]"
			})
			continue
		}
		s = re.ReplaceAllString(s, "[REDACTED]")
	}
	return s
}
