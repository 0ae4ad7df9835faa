package policy

import (
	"os"
	"slices"
)

// localPack: this machine's own safety — its security checks, the
// options and environment that make a program run something else, the
// places that hold secrets, the agent's own config, jobs that persist,
// packages from unreviewed sources, targets run by name, system state.
func localPack() Pack {
	return Pack{Name: "core.local", Desc: "This machine: security checks switched off, options that run commands, secret stores, the agent's own config, persistence, unreviewed installs, targets run by name, system state",
		Rules: slices.Concat(downgradeRules(), execOptionRules(), secretLocalRules(), agentConfigRules(), scheduleRules(), unreviewedRules(), runNameRules(), sysStateRules())}
}

// fileExists reports whether p is on disk now (a cheap stat: the rules
// that ask it judge one named file).
func fileExists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
