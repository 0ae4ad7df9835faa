package callfacts

import "testing"

// FuzzRunnerDefinitions: no definition file, however malformed, makes
// the reading panic or loop; a hook on a bad file fails open, not shut.
func FuzzRunnerDefinitions(f *testing.F) {
	for _, s := range []string{
		"all: a\na: b\nb: a\n\trm -rf $(X) $(shell ls) ${Y} $$Z $@ $< $^\n",
		"x:\n    rm -rf {{a}} {{\n#!/usr/bin/env python3\n",
		"tasks:\n  x:\n    deps: [x, {task: y}]\n    cmds:\n      - |\n        a\n      - {cmd: b}\n  y: [c, d]\n",
		`{"scripts":{"x":"npm run x","prex":["a"],"postx":1}}`,
		"[alias]\nx = \"x\"\ny = [\"y\", 1]\n",
		"- - -\n  :\n\t:\n{{{{}}}}\n$($($(\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := &normalizer{f: &Facts{names: map[string]bool{}, Project: "/p"}, cwd: "/p", home: "/h"}
		for _, name := range []string{"Makefile", "package.json", "justfile", "Taskfile.yml", "composer.json", ".cargo/config.toml"} {
			n.writeFile("/p/"+name, text{s: s, known: true}, false)
		}
		n.shell("make; make x y; npm run x; yarn x; just; just x a; task; task x; composer x; composer install; cargo x", 0, nil, nil)
	})
}
