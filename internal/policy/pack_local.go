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
		// one rule or rule list per line: packs grow by appending a line
		Rules: slices.Concat(
			downgradeRules(), appDBChangeRules(), homeDataBulkRules(), execOptionRules(), secretLocalRules(), agentConfigRules(),
			instructionNoAskRules(), secretHandoutRules(), scheduleRules(), unreviewedRules(), runNameRules(), sysStateRules(), hostActRules(),
			[]Rule{runNameWipeRule(), runNameEnvRule(), hiddenDiscardRule(), runNameSharedRule(), agentStopRule(), hiddenJobRule(),
				globalInstallRule(), othersJobsRule(), sudoersGrantRule(), editorExtensionRule(), protectedDBRule(), toolSettingsChangeRule()},
			autorunRules(), procSecretRules(), dependencyRules(), localServiceRules(),
			[]Rule{persistedDowngradeRule()},
			backgroundPersistRules(), authOffConfigRules(), beaconMinerRules(), unreviewedInstallRules(),
			procNotStartedRules(), []Rule{boardFlashTargetRule()},
			[]Rule{
				worldWritableSystemRule(),
				scriptDestroyRule(),
				serviceContainerRule(),
				pickedServiceContainerRule(),
				killPickedContainerRule(),
				printRunRule(),
				listedSecretFieldRule(),
				loginItemRule(),
			},
		)}
}

// fileExists reports whether p is on disk now (a cheap stat: the rules
// that ask it judge one named file).
func fileExists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// localRule is cmdRule for rules naming many programs: membership is one
// map lookup per command instead of a scan of the names (the everyday
// cost stays flat however long the list grows).
func localRule(id string, mode Mode, desc string, names []string, match func(e *Env, c *Cmd) string, catch, allow []string) Rule {
	set := make(map[string]bool, len(names))
	for _, n := range names {
		set[n] = true
	}
	named := func(n string) bool { return set[n] }
	return Rule{ID: id, Mode: mode, Desc: desc, Tools: shellTools, Cmds: names, Catch: catch, Allow: allow,
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				if !e.named(i, names, named) {
					continue
				}
				// help and dry-run forms change nothing; asked only of a hit
				if why := match(e, c); why != "" && !e.dryRun(c) && !c.Has("--help") {
					return why
				}
			}
			return ""
		}}
}
