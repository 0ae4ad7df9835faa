package callfacts

import "strings"

// storeCleans: a store's noun followed by one of these words empties
// the store (dspace database clean, a migration tool's db clean or
// schema wipe: every table dropped). Alone "clean" is too common (make
// clean, a build's clean step) to read as a removal; after the noun of
// a database it is the tool's drop-everything command.
var storeNouns = map[string]bool{"database": true, "db": true, "schema": true, "datastore": true, "keyspace": true}

var storeCleans = map[string]bool{"clean": true, "clear": true, "empty": true}

// storeClean: pos[i] (lowered l) is a cleaning word right after a store
// noun.
func storeClean(pos []string, i int, l string) bool {
	return i > 0 && storeCleans[l] && storeNouns[strings.ToLower(pos[i-1])]
}
