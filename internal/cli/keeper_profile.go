package cli

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// keeperProfileEnv names a file the keeper writes a CPU profile of its
// whole life to (pprof format, written when it exits: SIGTERM, idle,
// store gone). For measuring what a served hook costs the keeper under a
// real workload (bench/hook-latency -keeper-cpuprofile); read once at
// start-up, so no request pays for it.
const keeperProfileEnv = "WARDEN_KEEPER_CPUPROFILE"

// keeperProfile starts the CPU profile keeperProfileEnv asks for and
// returns what stops it and writes the file; a no-op without the
// variable. A profile that cannot start is said on stderr and skipped:
// the keeper serves either way.
func keeperProfile() (stop func()) {
	path := os.Getenv(keeperProfileEnv)
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "warden keeper: %s: %v; no profile\n", keeperProfileEnv, err)
		return func() {}
	}
	// Asked for at 1 kHz instead of pprof's 100 Hz: a hook is under a
	// millisecond of CPU, and a thousand hooks at 100 Hz make too few
	// samples to rank what they spend it on. The kernel fires the timer
	// at most once a tick (250 Hz on a CONFIG_HZ=250 kernel) and each
	// firing counts as 1 ms, so read the profile's shares, not its
	// times. (StartCPUProfile then says on stderr that the rate was
	// already set; a detached keeper's stderr goes nowhere.)
	runtime.SetCPUProfileRate(1000)
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		fmt.Fprintf(os.Stderr, "warden keeper: %s=%s: %v; no profile\n", keeperProfileEnv, path, err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
