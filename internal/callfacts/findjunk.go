package callfacts

import (
	"path"
	"strings"
)

// A find whose name tests all select leftovers — temp files, editor swap
// and backup files, bytecode, desktop metadata (*.tmp, *~, *.swp, *.pyc,
// .DS_Store) — deletes nothing anyone keeps, in the project or on a
// shared disk alike: what it removes is named by kind, not by the folder
// it starts from. Logs, .bak and .orig files are left out: they can be
// the only record or copy.

// leftoverExts and leftoverNames are what programs leave behind and make
// again.
var (
	leftoverExts  = map[string]bool{".tmp": true, ".temp": true, ".swp": true, ".swo": true, ".pyc": true, ".pyo": true, ".part": true, ".crdownload": true}
	leftoverNames = map[string]bool{".ds_store": true, "thumbs.db": true, "desktop.ini": true, "__pycache__": true, "*~": true, ".*~": true, "*.sw?": true, "*.py[co]": true, "._*": true, "nohup.out": true}
)

// FindsOnlyLeftovers: c, a find, selects by -name or -iname, every such
// pattern names leftovers, no negation turns the selection round and
// -delete is its only action.
func FindsOnlyLeftovers(c *Cmd) bool {
	if c.Name != "find" {
		return false
	}
	n := 0
	for i, a := range c.Args {
		switch a {
		case "!", "-not", "-regex", "-iregex", "-prune", ",", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls":
			return false // a turned selection, or a second action besides -delete
		case "-o", "-or":
			if i+1 >= len(c.Args) || c.Args[i+1] != "-name" && c.Args[i+1] != "-iname" {
				return false // -name '*.tmp' -o -delete deletes everything else
			}
		case "-name", "-iname":
			if i+1 >= len(c.Args) || !leftoverPattern(c.Args[i+1]) {
				return false
			}
			n++
		}
	}
	return n > 0
}

func leftoverPattern(p string) bool {
	b := strings.ToLower(p)
	if leftoverNames[b] {
		return true
	}
	return strings.HasPrefix(b, "*") && !strings.ContainsAny(b[1:], "*?[/") && leftoverExts[path.Ext(b)]
}

// LeftoverName: a file's name, or a glob of names (*.crdownload), says
// a program left it behind and makes it again (.DS_Store, x.tmp, x.swp,
// x.part, x.crdownload, x~).
func LeftoverName(name string) bool {
	b := strings.ToLower(name)
	return leftoverNames[b] || strings.HasSuffix(b, "~") || leftoverExts[path.Ext(b)] && path.Ext(b) != b || leftoverPattern(b)
}
