package config

import (
	"net/url"
	"strings"
)

// CheckHTTPURL accepts an absolute http or https URL with a host, or ""
// (the key's "off"). The message does not repeat the value: it may carry
// a token in its path or query.
func CheckHTTPURL(s string) string {
	if s == "" {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.ContainsAny(s, " \t\n") {
		return "want an absolute http:// or https:// URL such as https://example.com/hook"
	}
	return ""
}
