package policy

import "github.com/warden-dev/warden/internal/callfacts"

// The rules read the one reading of a call that every gate reads too
// (internal/callfacts); these names keep the rule packs and user rules
// written against policy.Facts as they were.
type (
	Facts    = callfacts.Facts
	Cmd      = callfacts.Cmd
	Call     = callfacts.Call
	PathRef  = callfacts.PathRef
	Redirect = callfacts.Redirect
)

// Path ops (see callfacts).
const (
	OpRead   = callfacts.OpRead
	OpWrite  = callfacts.OpWrite
	OpDelete = callfacts.OpDelete
	OpArg    = callfacts.OpArg
)

// Normalize reads a call into facts (callfacts.Normalize).
func Normalize(c Call) *Facts { return callfacts.Normalize(c) }

// NormPath normalizes a path as the facts do (callfacts.NormPath).
func NormPath(p, cwd, home string) string { return callfacts.NormPath(p, cwd, home) }
