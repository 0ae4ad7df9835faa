package storeguard

import (
	"errors"
	"strings"
	"syscall"
)

// SQLite result codes (primary codes; an extended code's low byte) that
// mean the store cannot take writes until someone acts: SQLITE_READONLY,
// SQLITE_IOERR, SQLITE_CORRUPT, SQLITE_CANTOPEN, SQLITE_FULL, SQLITE_NOTADB.
var sqliteFaults = map[int]bool{8: true, 10: true, 11: true, 13: true, 14: true, 26: true}

// IsStorageFault reports whether err says the store cannot write (rather
// than a conflict, a busy lock or a bad request): SQLite's codes above
// (modernc.org/sqlite's *Error has Code() int), PostgreSQL's SQLSTATE
// classes 53 (insufficient resources: disk full, out of memory), 58
// (system error: I/O) and XX (internal: data corrupted), and the
// operating system's ENOSPC, EFBIG, EROFS, EIO and EDQUOT.
func IsStorageFault(err error) bool {
	var lite interface{ Code() int }
	if errors.As(err, &lite) {
		return sqliteFaults[lite.Code()&0xff]
	}
	var pg interface{ SQLState() string }
	if errors.As(err, &pg) {
		s := pg.SQLState()
		return strings.HasPrefix(s, "53") || strings.HasPrefix(s, "58") || strings.HasPrefix(s, "XX") || s == "25006"
	}
	for _, e := range []error{syscall.ENOSPC, syscall.EFBIG, syscall.EROFS, syscall.EIO, syscall.EDQUOT} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
