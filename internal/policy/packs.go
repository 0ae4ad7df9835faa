package policy

import (
	"slices"
	"sync"
)

// Builtin returns the built-in packs. They are built on first call, not
// at package init, so hook events that never evaluate a rule pay nothing,
// and once per process: a resident server (the keeper, the daemon)
// evaluates the same packs for every hook, and building them was ~7% of a
// served hook's CPU. The packs are read-only once built (rules are
// matched through their Match funcs, which keep no state), so every
// engine may share them; the returned slice is the caller's own.
func Builtin() []Pack { return slices.Clone(builtinPacks()) }

var builtinPacks = sync.OnceValue(func() []Pack {
	return []Pack{shellPack(), gitPack(), sqlPack(), interpPack(), pathsPack(), sensitivePack(), selfPack(), sizePack(),
		secretsPack(), riskyPack(), externalPack(), indirectPack(), destroyPack(), zonesPack(), hostControlPack(), localPack()}
})
