package policy

import "sync"

// Nine rules judge a command only by its action in the remote-action
// tables (callfacts/remote.txt: publish, visibility, destroy, upload,
// unprotect, notify, change, ship, grant) and name every program those
// tables know (callfacts.RemoteActionTools, some 1,500 names, npm, docker,
// gh and aws among them): an everyday npm run build met all nine, each
// only to find the command has no such action. The engine reads the
// table below as it reads subgates.go: such a rule runs only when one of
// the line's commands of its programs has the action it names. The action
// is read once per command per call (Env.remoteAction), as the rules
// read it.
//
// Each entry is the rule's own precondition (cmdRuleIf's pre: the
// command's remote action is this one), so the gate is closed exactly
// where the rule returns "" for every command. Change one with the other;
// TestActGatesAreSound runs every gated rule's cases and the corpora
// against its entry.

// builtinActGates is built on first use, like builtinSubGates.
var builtinActGates = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"external.systems:publish-image":   "publish",    // remoteActionRules' kind
		"external.systems:make-public":     "visibility", //
		"external.systems:registry-delete": "destroy",    //
		"external.systems:share-upload":    "upload",     // shareRules' kindRule
		"external.systems:unprotect":       "unprotect",  //
		"external.systems:notify":          "notify",     //
		"external.systems:remote-change":   "change",     //
		"external.systems:ship":            "ship",       // remoteActionRule
		"external.systems:grant-access":    "grant",      //
	}
})

// actGateOpen reports whether the action-gated rule r can fire on the
// call: one of the commands of its programs has its action.
func (e *Env) actGateOpen(r *prepared) bool {
	return e.anyCmdOf(r, func(i int) bool { return e.remoteAction(&e.F.Commands[i]) == r.act })
}
