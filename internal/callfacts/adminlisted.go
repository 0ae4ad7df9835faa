package callfacts

import "strings"

// AdminListed: the admin table (admin.txt) has lines for the program
// name, so its verbs are judged there; a general default leaves it alone.
func AdminListed(name string) bool {
	return adminTab().progs[strings.ToLower(name)] != nil
}
