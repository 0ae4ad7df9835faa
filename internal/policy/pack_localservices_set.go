package policy

// sys4Rules are the fourth round's rules about this machine and its
// user's services (core.local); the SDK rule is core.interp's.
func sys4Rules() []Rule { return []Rule{composeOutsideRule()} }
