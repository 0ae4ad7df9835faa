package policy

// localServiceRules are rules about this machine and its user's
// services (core.local); the SDK rule is core.interp's.
func localServiceRules() []Rule { return []Rule{composeOutsideRule()} }
