package config

import (
	"net/url"
	"os"
	"strings"
)

// DatabaseURLEnv overrides store.url (a deployment sets the shared store's
// URL, password included, without writing it to a file).
const DatabaseURLEnv = "WARDEN_DATABASE_URL"

// StoreURL is the PostgreSQL URL the store uses and where it came from:
// WARDEN_DATABASE_URL when set (it wins), else store.url; "" means the
// local SQLite store.
func (c *Config) StoreURL() (u, from string) {
	if v := strings.TrimSpace(os.Getenv(DatabaseURLEnv)); v != "" {
		return v, DatabaseURLEnv
	}
	if c.Store.URL != "" {
		return c.Store.URL, "store.url"
	}
	return "", ""
}

// CheckStoreURL says what is wrong with a store URL and the fix ("" when
// it looks usable; whether the server answers is warden doctor's
// business). It accepts postgres:// and postgresql:// URLs and libpq's
// key=value strings, and never repeats the value: it may hold a password.
func CheckStoreURL(s string) string {
	const fix = "; write it as postgres://USER:PASSWORD@HOST:5432/DATABASE"
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if !strings.Contains(s, "://") {
		if strings.Contains(s, "=") && (strings.Contains(s, "host=") || strings.Contains(s, "dbname=")) {
			return "" // libpq key=value form
		}
		return "is not a PostgreSQL URL" + fix
	}
	u, err := url.Parse(s)
	if err != nil {
		return "does not parse as a URL" + fix
	}
	switch {
	case u.Scheme != "postgres" && u.Scheme != "postgresql":
		return "has scheme " + u.Scheme + ", not postgres" + fix
	case u.Host == "" && u.Query().Get("host") == "":
		return "names no host" + fix
	case strings.Trim(u.Path, "/") == "" && u.Query().Get("dbname") == "":
		return "names no database" + fix
	}
	if p := u.Port(); p != "" {
		for _, r := range p {
			if r < '0' || r > '9' {
				return "has a port that is not a number" + fix
			}
		}
	}
	return ""
}
