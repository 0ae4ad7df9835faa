package hook_test

import (
	"testing"

	"github.com/warden-dev/warden/internal/testenv"
)

// TestMain runs the package's tests in a home of their own (testenv.Main).
// The warden processes they start use throwaway stores: no store keeper
// may outlive them (see internal/store/keeper).
func TestMain(m *testing.M) { testenv.Main(m, "WARDEN_KEEPER=off") }
