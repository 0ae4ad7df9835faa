package reqenv

import (
	"context"
	"os"
	"strings"
	"sync"
	"time"
)

// Location is the caller's time zone, as its own process would load it
// from TZ (the rules of Go's time package): unset → /etc/localtime, empty
// → UTC, a name (":name" too) → that zone, an absolute path → the zone in
// that file, a zone that does not load → UTC. A resident server formats
// the caller's local times with it instead of time.Local, which is the
// server's own; zones are loaded once per process and shared (a Location
// is immutable).
func (e *Env) Location() *time.Location {
	if e == nil {
		return time.Local
	}
	tz, ok := e.LookupEnv("TZ")
	if !ok {
		tz = unsetTZ
	}
	if v, ok := zones.Load(tz); ok {
		return v.(*time.Location)
	}
	loc := loadTZ(tz)
	zones.Store(tz, loc)
	return loc
}

// Location is the time zone of the caller ctx carries, else time.Local.
func Location(ctx context.Context) *time.Location {
	if ctx != nil {
		if e, ok := ctx.Value(ctxKey{}).(*Env); ok && e != nil {
			return e.Location()
		}
	}
	return time.Local
}

// unsetTZ stands for "TZ is not set" in the cache (no real TZ holds NUL).
const unsetTZ = "\x00unset"

var zones sync.Map // TZ value → *time.Location

func loadTZ(tz string) *time.Location {
	if tz == unsetTZ {
		if _, set := os.LookupEnv("TZ"); !set {
			return time.Local // this process loaded /etc/localtime too
		}
		tz = "/etc/localtime"
	}
	tz = strings.TrimPrefix(tz, ":")
	switch {
	case tz == "" || tz == "UTC":
		return time.UTC
	case strings.HasPrefix(tz, "/"):
		b, err := os.ReadFile(tz)
		if err != nil {
			return time.UTC
		}
		name := tz
		if tz == "/etc/localtime" {
			name = "Local"
		}
		if loc, err := time.LoadLocationFromTZData(name, b); err == nil {
			return loc
		}
		return time.UTC
	}
	if loc, err := time.LoadLocation(tz); err == nil {
		return loc
	}
	return time.UTC
}
