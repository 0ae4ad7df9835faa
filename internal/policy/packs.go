package policy

// Builtin returns the built-in packs. They are built on call, not at
// package init, so hook events that never evaluate a rule pay nothing;
// the hook builds them once per process.
func Builtin() []Pack {
	return []Pack{shellPack(), gitPack(), sqlPack(), interpPack(), pathsPack(), sensitivePack(), selfPack(), sizePack(),
		secretsPack(), riskyPack(), externalPack(), indirectPack(), destroyPack()}
}
