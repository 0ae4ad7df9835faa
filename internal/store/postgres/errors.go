package postgres

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// ConfigError is a failure that retrying will not mend: the server
// answered and refused the login, or lacks the database or the rights.
// Someone must change store.url / WARDEN_DATABASE_URL or the server.
// Callers tell it from an outage with errors.As on an interface
// { Permanent() bool }, so they need not link pgx (internal/store/ship).
type ConfigError struct{ msg string }

func (e *ConfigError) Error() string { return e.msg }

// Permanent is true: only a change of the setting or the server helps.
func (e *ConfigError) Permanent() bool { return true }

func configError(format string, a ...any) error {
	return &ConfigError{msg: fmt.Sprintf(format, a...)}
}

// connError turns a failure to connect or to run the first query into one
// line naming the setting and the fix, for warden doctor and warden serve.
// The URL itself is never printed: it may hold a password. A refused
// login, a missing database and missing rights are *ConfigError.
func (s *Store) connError(err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "28P01", "28000": // invalid_password, invalid_authorization_specification
			return configError("PostgreSQL at %s refused the login (%s): fix the user or password in %s", s.where, pe.Message, urlKeys)
		case "3D000": // invalid_catalog_name
			db := s.where[strings.LastIndex(s.where, "/")+1:]
			return configError("PostgreSQL at %s has no database %q: create it (createdb %s) or fix the name in %s", s.where, db, db, urlKeys)
		case "42501": // insufficient_privilege
			return configError("PostgreSQL at %s: permission denied (%s): grant the user rights on the database or use another user in %s", s.where, pe.Message, urlKeys)
		}
		return fmt.Errorf("PostgreSQL at %s: %s (SQLSTATE %s); check %s", s.where, pe.Message, pe.Code, urlKeys)
	}
	var oe *net.OpError
	var dnsErr *net.DNSError
	switch {
	case errors.As(err, &dnsErr):
		return fmt.Errorf("PostgreSQL host in %s does not resolve (%s): fix the host", urlKeys, oneLine(dnsErr))
	case errors.As(err, &oe):
		return fmt.Errorf("cannot reach PostgreSQL at %s (%s): start the server or fix the host and port in %s", s.where, oneLine(oe.Err), urlKeys)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("PostgreSQL at %s did not answer in time: check the server and the host and port in %s", s.where, urlKeys)
	}
	return fmt.Errorf("PostgreSQL at %s: %s; check %s", s.where, oneLine(err), urlKeys)
}

func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

func sqlState(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

func isUndefinedTable(err error) bool { return sqlState(err) == "42P01" }
func isPermission(err error) bool     { return sqlState(err) == "42501" }
