package callfacts

import (
	_ "embed"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// winadminText says, as data, what Windows' administration tools (reg,
// sc, icacls, net, wmic, dism, schtasks…) do by their verb and target:
// read, change this machine, the user's settings or another machine, or
// destroy there (win14).
//
//go:embed winadmin.txt
var winadminText string

var winAdminRules = sync.OnceValue(func() map[string][]wordRule {
	return parseWords(datatable.Lines("winadmin.txt", winadminText), true)
})

// WinAdmin is what c, a Windows administration tool, does by
// winadmin.txt: its kind (read, ask:system, deny:down…), "" when no line
// holds or it is help or a dry run.
func (c *Cmd) WinAdmin() string {
	name := strings.TrimSuffix(strings.ToLower(c.Name), ".exe")
	if r := matchWords(winAdminRules()[name], c); r != nil {
		return r.kind
	}
	return ""
}

// WinAdminTools are the programs winadmin.txt names, with and without
// .exe (shared: do not modify).
var WinAdminTools = sync.OnceValue(func() []string {
	var out []string
	for _, n := range programNames(winAdminRules()) {
		out = append(out, n, n+".exe")
	}
	return out
})

// winAdminNames is WinAdminTools as a set: effectOf asks it of every
// command.
var winAdminNames = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, n := range WinAdminTools() {
		m[n] = true
	}
	return m
})
