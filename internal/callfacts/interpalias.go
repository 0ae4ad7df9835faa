package callfacts

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// An exec function called under another name is still the exec function
// (disguise12, #30): from os import system as s; s('…'), f = os.system,
// const {execSync: x} = require('child_process'), getattr(os,
// 'system')('…'), cp['execSync']('…'), Kernel.send(:system, '…'),
// method(:system).call('…'). canonicalExecs rewrites such calls to the
// function's own name before the payload is read.

type aliasRes struct {
	getattr, bracket, send, method, pyImport, assign, destructure *regexp.Regexp
}

var aliasREs = sync.OnceValue(func() aliasRes {
	return aliasRes{
		getattr:     regexp.MustCompile(`getattr\(\s*[\w.]+\s*,\s*['"](\w+)['"]\s*\)\s*\(`),
		bracket:     regexp.MustCompile(`\[\s*['"](\w+)['"]\s*\]\s*\(`),
		send:        regexp.MustCompile(`\b(?:send|public_send|__send__)\(\s*:(\w+)\s*,\s*`),
		method:      regexp.MustCompile(`\bmethod\(\s*:(\w+)\s*\)\s*\.call\(`),
		pyImport:    regexp.MustCompile(`\bimport\s+(\w+)\s+as\s+(\w+)`),
		assign:      regexp.MustCompile(`(?:^|[;\n{(\s])(?:const\s+|let\s+|var\s+|my\s+)?\$?(\w+)\s*=\s*[\w.$'"()\[\]]*?\.?(\w+)\s*(?:;|\n|$)`),
		destructure: regexp.MustCompile(`\{\s*(\w+)\s*:\s*(\w+)\s*\}`),
	}
})

// canonicalExecs returns code with exec functions called under an alias
// or by reflection spelled as themselves.
func canonicalExecs(code string) string {
	if !strings.ContainsAny(code, "[=:") && !strings.Contains(code, " as ") && !strings.Contains(code, "getattr") {
		return code
	}
	r := aliasREs()
	isExec := func(f string) bool { return slices.Contains(execFuncs, f) }
	repl := func(re *regexp.Regexp, c string) string {
		return re.ReplaceAllStringFunc(c, func(m string) string {
			f := re.FindStringSubmatch(m)[1]
			if !isExec(f) {
				return m
			}
			return " " + f + "("
		})
	}
	code = repl(r.getattr, code)
	code = repl(r.bracket, code)
	code = repl(r.send, code)
	code = repl(r.method, code)
	aliases := map[string]string{}
	for _, m := range r.pyImport.FindAllStringSubmatch(code, 8) {
		if isExec(m[1]) {
			aliases[m[2]] = m[1] // from os import system as s
		}
	}
	for _, m := range r.assign.FindAllStringSubmatch(code, 8) {
		if isExec(m[2]) && !isExec(m[1]) {
			aliases[m[1]] = m[2] // f = os.system; x = require('child_process').execSync
		}
	}
	for _, m := range r.destructure.FindAllStringSubmatch(code, 8) {
		if isExec(m[1]) && !isExec(m[2]) {
			aliases[m[2]] = m[1] // const {execSync: x} = require('child_process')
		}
	}
	for a, f := range aliases {
		re, err := regexp.Compile(`(^|[^\w.$])\$?` + regexp.QuoteMeta(a) + `\s*\(`)
		if err == nil {
			code = re.ReplaceAllString(code, "${1}"+f+"(")
		}
	}
	return code
}
