package server

import (
	"errors"
	"net/http"

	"github.com/warden-dev/warden/internal/storeguard"
)

// A store that stopped taking writes (package storeguard) answers every
// write 503 store_unavailable with the fault's message (which file, why,
// the fix); /health says "degraded" and /api/systems carries the fault
// on this daemon's entry, which `warden serve status` prints.

// storeFault is the latched fault, nil when none or not configured.
func (s *Server) storeFault() *storeguard.Fault {
	if s.o.StoreFault == nil {
		return nil
	}
	return s.o.StoreFault()
}

// isStoreFault reports whether err is a write refused for a store fault.
func isStoreFault(err error) bool { return errors.Is(err, storeguard.ErrFault) }

// storeFaultStatus is the status and code of such a refusal.
const storeFaultStatus, storeFaultCode = http.StatusServiceUnavailable, "store_unavailable"
