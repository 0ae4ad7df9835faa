package callfacts

import (
	"path"
	"strings"
)

// A Taskfile (go-task) read enough to know what `task [name…]` runs: its
// tasks' cmds (strings, {cmd: …} and {task: …} entries), deps and dir,
// and vars set to plain strings for {{.NAME}}. The YAML is read by the
// small block-structure reader below (maps, lists, flow lists and maps,
// block scalars), so the hook links no YAML library; what it cannot read
// is left out.

// yamlNode is a value: a string, a list or a map.
type yamlNode struct {
	s    string
	list []*yamlNode
	keys []string
	m    map[string]*yamlNode
}

func (y *yamlNode) get(k string) *yamlNode {
	if y == nil || y.m == nil {
		return nil
	}
	return y.m[k]
}

type yamlLine struct {
	indent int
	text   string
}

// parseYAML reads the block structure of a YAML document.
func parseYAML(s string) *yamlNode {
	var lines []yamlLine
	for _, l := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
		t := strings.TrimLeft(l, " ")
		if strings.TrimSpace(t) == "" || strings.HasPrefix(t, "#") || t == "---" {
			lines = append(lines, yamlLine{indent: -1, text: l}) // kept for block scalars
			continue
		}
		lines = append(lines, yamlLine{indent: len(l) - len(t), text: strings.TrimRight(t, " \t")})
	}
	p := &yamlParser{lines: lines}
	return p.block(0)
}

type yamlParser struct {
	lines []yamlLine
	i     int
}

// next skips blank lines and returns the index of the next content line.
func (p *yamlParser) next() int {
	for p.i < len(p.lines) && p.lines[p.i].indent < 0 {
		p.i++
	}
	return p.i
}

// block reads the map or list whose lines start at indent min or more.
func (p *yamlParser) block(min int) *yamlNode {
	if p.next() >= len(p.lines) || p.lines[p.i].indent < min {
		return &yamlNode{}
	}
	ind := p.lines[p.i].indent
	node := &yamlNode{}
	for p.next() < len(p.lines) && p.lines[p.i].indent == ind {
		t := p.lines[p.i].text
		if t == "-" || strings.HasPrefix(t, "- ") {
			item := strings.TrimSpace(strings.TrimPrefix(t, "-"))
			p.i++
			if k, v, ok := yamlKey(item); ok {
				// "- key: value" opens a map whose other keys sit deeper
				m := &yamlNode{m: map[string]*yamlNode{}}
				col := ind + len(t) - len(item) // the column of the item's keys
				m.keys, m.m[k] = []string{k}, p.value(v, col+1)
				if p.next() < len(p.lines) && p.lines[p.i].indent >= col {
					rest := p.block(col)
					for _, rk := range rest.keys {
						m.keys, m.m[rk] = append(m.keys, rk), rest.m[rk]
					}
				}
				node.list = append(node.list, m)
				continue
			}
			node.list = append(node.list, p.value(item, ind+1))
			continue
		}
		k, v, ok := yamlKey(t)
		p.i++
		if !ok {
			continue
		}
		if node.m == nil {
			node.m = map[string]*yamlNode{}
		}
		var val *yamlNode
		if v == "" && p.next() < len(p.lines) && p.lines[p.i].indent == ind && strings.HasPrefix(p.lines[p.i].text, "-") {
			val = p.block(ind) // a list at the key's own indent
		} else {
			val = p.value(v, ind+1)
		}
		node.keys, node.m[k] = append(node.keys, k), val
	}
	return node
}

// value reads the value after "key:" or "- ": inline, a block scalar, a
// flow collection, or a nested block.
func (p *yamlParser) value(v string, min int) *yamlNode {
	switch {
	case v == "":
		return p.block(min)
	case v[0] == '|' || v[0] == '>':
		var b []string
		ind := -1
		for ; p.i < len(p.lines); p.i++ {
			l := p.lines[p.i]
			if l.indent >= 0 && (l.indent < min || ind >= 0 && l.indent < ind) {
				break // less indented than the scalar's first line: it ended
			}
			if l.indent >= 0 && ind < 0 {
				ind = l.indent
			}
			if l.indent < 0 {
				b = append(b, "")
			} else {
				b = append(b, strings.Repeat(" ", l.indent-ind)+l.text)
			}
		}
		sep := "\n"
		if v[0] == '>' {
			sep = " "
		}
		return &yamlNode{s: strings.TrimRight(strings.Join(b, sep), "\n ")}
	case v[0] == '[' && strings.HasSuffix(v, "]"):
		n := &yamlNode{}
		for _, e := range splitFlow(v[1 : len(v)-1]) {
			n.list = append(n.list, p.value(e, min))
		}
		return n
	case v[0] == '{' && strings.HasSuffix(v, "}"):
		n := &yamlNode{m: map[string]*yamlNode{}}
		for _, e := range splitFlow(v[1 : len(v)-1]) {
			if k, ev, ok := yamlKey(e); ok {
				n.keys, n.m[k] = append(n.keys, k), &yamlNode{s: yamlScalar(ev)}
			}
		}
		return n
	}
	return &yamlNode{s: yamlScalar(v)}
}

// yamlKey splits "key: value" (a key may be quoted).
func yamlKey(t string) (string, string, bool) {
	if t == "" || t[0] == '"' || t[0] == '\'' {
		if len(t) > 1 {
			if end := strings.IndexByte(t[1:], t[0]); end >= 0 && strings.HasPrefix(t[end+2:], ":") {
				return t[1 : end+1], strings.TrimSpace(t[end+3:]), true
			}
		}
		return "", "", false
	}
	i := strings.Index(t, ": ")
	if i < 0 {
		if strings.HasSuffix(t, ":") {
			return t[:len(t)-1], "", !strings.ContainsAny(t[:len(t)-1], " {[")
		}
		return "", "", false
	}
	if strings.ContainsAny(t[:i], "{[\"'") {
		return "", "", false
	}
	return t[:i], strings.TrimSpace(t[i+2:]), true
}

// yamlScalar unquotes a scalar and drops a trailing comment.
func yamlScalar(v string) string {
	v = strings.TrimSpace(v)
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	if i := strings.Index(v, " #"); i >= 0 {
		v = strings.TrimSpace(v[:i])
	}
	return v
}

// splitFlow splits a flow collection's items on commas outside quotes
// and brackets.
func splitFlow(s string) []string {
	var out []string
	level, start := 0, 0
	var q byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '"' || c == '\'':
			q = c
		case c == '[' || c == '{':
			level++
		case c == ']' || c == '}':
			level--
		case c == ',' && level == 0:
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, t)
	}
	return out
}

// taskVars fills {{.NAME}} with vars set to plain strings; anything
// else becomes a shell variable the line does not know.
func taskVars(s string, vars map[string]string) string {
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			return s
		}
		end := strings.Index(s[i:], "}}")
		if end < 0 {
			return s
		}
		name := strings.TrimPrefix(strings.TrimSpace(s[i+2:i+end]), ".")
		v, ok := vars[name]
		if !ok {
			v = "${" + shellName(name) + "}"
		}
		s = s[:i] + v + s[i+end+2:]
	}
}

// runTask walks what `task [name…]` would run.
func (n *normalizer) runTask(c *Cmd, depth int, wrappers []string) {
	if c.Has("-l", "--list", "-a", "--list-all", "--summary", "-i", "--init", "--status") {
		return
	}
	pos, _ := positionals(c.Args, "-t", "--taskfile", "-d", "--dir", "-o", "--output", "-C", "--concurrency", "--interval", "--sort")
	dir := n.runnerDir(c, "-d", "--dir")
	var file string
	var t text
	var ok bool
	if f := optValue(c.Args, "-t", "--taskfile"); f != "" {
		file = NormPath(f, n.cwd, n.home)
		t, ok = n.defText(file)
	} else {
		file, t, ok = n.findDef(dir, true, "Taskfile.yml", "taskfile.yml", "Taskfile.yaml", "taskfile.yaml", "Taskfile.dist.yml", "Taskfile.dist.yaml")
	}
	if !ok || !t.known {
		return
	}
	doc := parseYAML(t.s)
	tasks := doc.get("tasks")
	if tasks == nil {
		return
	}
	vars := map[string]string{}
	for k, v := range doc.get("vars").strings() {
		vars[k] = v
	}
	var names []string
	for _, p := range pos {
		if k, v, ok := strings.Cut(p, "="); ok {
			vars[k] = v // task NAME=value sets a variable
		} else {
			names = append(names, p)
		}
	}
	if len(names) == 0 {
		names = []string{"default"}
	}
	base := defDir(file)
	seen := map[string]bool{}
	var run func(name string, level int)
	run = func(name string, level int) {
		tk := tasks.get(name)
		if tk == nil || seen[name] || level > 16 || len(seen) >= maxMakeTargets {
			return
		}
		seen[name] = true
		label := "task " + name
		tv := map[string]string{}
		for k, v := range vars {
			tv[k] = v
		}
		for k, v := range tk.get("vars").strings() {
			tv[k] = v
		}
		wd := base
		if d := tk.get("dir"); d != nil && d.s != "" {
			wd = NormPath(taskVars(d.s, tv), base, n.home)
			if !path.IsAbs(wd) {
				wd = base
			}
		}
		for _, d := range tk.get("deps").items() {
			if d.s != "" {
				run(d.s, level+1)
			} else if sub := d.get("task"); sub != nil {
				run(sub.s, level+1)
			}
		}
		cmds := tk.get("cmds")
		switch {
		case tk.s != "": // name: command
			cmds = &yamlNode{list: []*yamlNode{tk}}
		case tk.list != nil: // name: [commands]
			cmds = tk
		case cmds == nil && tk.get("cmd") != nil:
			cmds = &yamlNode{list: []*yamlNode{tk.get("cmd")}}
		}
		for _, e := range cmds.items() {
			switch {
			case e.s != "":
				n.runDef(label, taskVars(e.s, tv), wd, depth, wrappers)
			case e.get("cmd") != nil:
				n.runDef(label, taskVars(e.get("cmd").s, tv), wd, depth, wrappers)
			case e.get("task") != nil:
				run(e.get("task").s, level+1)
			}
		}
	}
	for _, name := range names {
		run(name, 0)
	}
}

// items is a list's entries (nil for anything else).
func (y *yamlNode) items() []*yamlNode {
	if y == nil {
		return nil
	}
	return y.list
}

// strings is a map's plain string values.
func (y *yamlNode) strings() map[string]string {
	out := map[string]string{}
	if y == nil {
		return out
	}
	for k, v := range y.m {
		if v.s != "" && v.m == nil && v.list == nil {
			out[k] = v.s
		}
	}
	return out
}
