package cli

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/warden-dev/warden/internal/store"
)

// eventDetail is the DETAIL column of `warden log`: for file tools the
// file's name, lines added/removed and the short content hashes before →
// after; for any tool the duration Claude Code reported.
func eventDetail(e store.Event) string {
	var parts []string
	if e.Path != "" {
		parts = append(parts, filepath.Base(e.Path))
	}
	if e.LinesAdded != nil || e.LinesRemoved != nil {
		parts = append(parts, fmt.Sprintf("+%d -%d", deref(e.LinesAdded), deref(e.LinesRemoved)))
	}
	if e.HashBefore != "" || e.HashAfter != "" {
		parts = append(parts, shortHash(e.HashBefore)+"→"+shortHash(e.HashAfter))
	}
	if e.DurationMS != nil {
		parts = append(parts, fmt.Sprintf("%dms", *e.DurationMS))
	}
	return strings.Join(parts, " ")
}

func deref(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

// shortHash is the first 8 hex digits, "-" when unknown.
func shortHash(h string) string {
	if h == "" {
		return "-"
	}
	if len(h) > 8 {
		return h[:8]
	}
	return h
}
