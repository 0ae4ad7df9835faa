package callfacts

import "strings"

// A command given the same file as its input and its output rewrites
// that file in place (#30): ocrmypdf --force-ocr x.pdf x.pdf, magick
// hero.jpg -resize 50% hero.jpg, sox a.wav a.wav norm, saxon
// -s:letter.xml -o:letter.xml. Whatever the program, what was in the file
// is replaced, so the path is overwritten: in the project that is the
// developer's own work (allowed), in the user's data under home it asks
// as any overwrite there does (the zone table). Programs that only
// compare or print what they are given (diff a a, cat a a) and the
// copy and link tools judged by their own tables are not read so.

// inPlaceSkip: programs that read both operands, or whose tables already
// say what they write.
var inPlaceSkip = map[string]bool{"diff": true, "cmp": true, "comm": true, "join": true, "paste": true, "cat": true, "ls": true, "stat": true, "file": true,
	"wc": true, "head": true, "tail": true, "less": true, "more": true, "grep": true, "rg": true, "echo": true, "printf": true, "test": true, "[": true,
	"md5sum": true, "sha1sum": true, "sha256sum": true, "sha512sum": true, "b2sum": true, "cksum": true, "ln": true, "cp": true, "mv": true, "rsync": true,
	"install": true, "git": true, "docker": true, "podman": true, "vimdiff": true, "meld": true, "code": true, "vim": true, "nvim": true, "emacs": true,
	"chmod": true, "chown": true, "touch": true, "mount": true, "umount": true, "du": true, "find": true, "xdg-open": true, "open": true}

// inPlacePath is the file c names twice among its operands and option
// values (-o:f, --output=f), "" when it names none twice.
func inPlacePath(c *Cmd, home string) string {
	if len(c.Args) < 2 || inPlaceSkip[c.Name] || c.Payload != "" {
		return ""
	}
	var seen []string
	for _, a := range c.Args {
		v := a
		if strings.HasPrefix(a, "-") {
			i := strings.IndexAny(a, "=:")
			if i < 0 {
				continue
			}
			v = a[i+1:]
		}
		if !fileLike(v) {
			continue
		}
		p := NormPath(v, c.Dir, home)
		for _, s := range seen {
			if s == p {
				return p
			}
		}
		seen = append(seen, p)
	}
	return ""
}

// fileLike: v names a file (a path with a name and an extension), not a
// word, a number, a directory or a pattern.
func fileLike(v string) bool {
	if v == "" || strings.ContainsAny(v, "*?$`{}") || strings.HasSuffix(v, "/") || strings.Contains(v, "://") {
		return false
	}
	b := v[strings.LastIndexByte(v, '/')+1:]
	i := strings.LastIndexByte(b, '.')
	return i > 0 && i < len(b)-1
}
