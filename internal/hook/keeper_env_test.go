package hook

import (
	"os"
)

// The warden processes these tests start use throwaway stores: no store
// keeper may outlive them (see internal/store/keeper).
func init() { os.Setenv("WARDEN_KEEPER", "off") }
