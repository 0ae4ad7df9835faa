package dashboard

import (
	"net/url"
	"strings"
	"unicode"
)

// safeNext is where to go after logging in: next when it is a path of
// this site as a browser will read it, else "/". Checking the prefix is
// not enough: browsers drop TAB, CR and LF anywhere in a URL and read a
// backslash as a slash, so "/<TAB>/evil.example" and "/\evil.example" are
// "//evil.example", another host. Any control or format character (bidi
// overrides too) and any backslash is refused rather than cleaned, and
// the login page itself is not a destination.
func safeNext(next string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") ||
		strings.ContainsRune(next, '\\') || strings.HasPrefix(next, "/login") {
		return "/"
	}
	for _, c := range next {
		if unicode.IsControl(c) || unicode.Is(unicode.Cf, c) || unicode.IsSpace(c) {
			return "/"
		}
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil {
		return "/"
	}
	return next
}
