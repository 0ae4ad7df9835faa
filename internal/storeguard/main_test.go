package storeguard

import (
	"testing"

	"github.com/warden-dev/warden/internal/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }
