package policy

// miss9aRules: text payloads and remote targets — SQL carried as text
// wherever it stands, security downgrades by value, remote programs'
// payloads (pack_miss9a_*.go).
func miss9aRules() []Rule {
	return append(append([]Rule{sqlDowngradeRule()}, miss9aValueRules()...), miss9aProdRules()...)
}
