package callfacts

import (
	_ "embed"
	"slices"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// pscmdletsText says which PowerShell cmdlets act on something elsewhere
// and what their approved verb does there (read, change, destroy).
//
//go:embed pscmdlets.txt
var pscmdletsText string

type psCmdletTable struct {
	verbs  map[string]string // approved verb → destroy, change or read
	remote []string          // noun prefixes of remote modules, longest first
	local  map[string]bool   // nouns that are the session's own settings
	soft   []string          // noun endings a remove only takes away
	wipe   []string          // noun parts that wipe what they name whatever the verb (win14)
	bulk   map[string]bool   // change verbs that destroy when fed every object (win14)
	final  map[string]bool   // arguments that make any cmdlet's act past recovery (-Purge, HardDelete)
	force  map[string]bool   // arguments that make a remove skip its prompt or take a whole tree
}

var psCmdlets = sync.OnceValue(func() psCmdletTable {
	t := psCmdletTable{verbs: map[string]string{}, local: map[string]bool{}, bulk: map[string]bool{}, final: map[string]bool{}, force: map[string]bool{}}
	datatable.Must("pscmdlets.txt", pscmdletsText, 2, func(l datatable.Line) error {
		switch k := l.Fields[0]; k {
		case "destroy", "change", "read":
			for _, v := range l.Fields[1:] {
				t.verbs[v] = k
			}
		case "remote":
			t.remote = append(t.remote, l.Fields[1:]...)
		case "local":
			for _, n := range l.Fields[1:] {
				t.local[n] = true
			}
		case "soft":
			t.soft = append(t.soft, l.Fields[1:]...)
		case "wipe":
			t.wipe = append(t.wipe, l.Fields[1:]...)
		case "bulk", "final", "force":
			m := map[string]map[string]bool{"bulk": t.bulk, "final": t.final, "force": t.force}[k]
			for _, v := range l.Fields[1:] {
				m[v] = true
			}
		default:
			return l.Errorf("want destroy, change, read, remote, local, soft, wipe, bulk, final or force, not %q", k)
		}
		return nil
	})
	// longest first: azuread before az, vmhost before vm (the kind is the
	// same; the order only keeps the match the module's own)
	for i := 1; i < len(t.remote); i++ {
		for j := i; j > 0 && len(t.remote[j]) > len(t.remote[j-1]); j-- {
			t.remote[j], t.remote[j-1] = t.remote[j-1], t.remote[j]
		}
	}
	return t
})

// PSRemoteCmdlet is what c, a PowerShell cmdlet of a module that
// administers something elsewhere (Remove-AzResourceGroup,
// New-AzResourceGroupDeployment), does there: "destroy", "change", or ""
// for a read, a cmdlet of this machine, one the identity table judges, a
// -WhatIf run or anything that is not a cmdlet. A cmdlet read from
// PowerShell text whose module the table does not name (Remove-DfsnRoot,
// Set-DfsnFolderTarget) is read by its approved verb too: a change asks,
// a remove is destroyed when it is forced (-Force, -Recurse,
// -Confirm:$false) and asks otherwise. An argument that makes
// the act final (-Purge, -PurgeType HardDelete, -Permanent) destroys
// whatever the verb (New-ComplianceSearchAction -Purge).
func (c *Cmd) PSRemoteCmdlet() string {
	verb, noun, ok := strings.Cut(c.Name, "-")
	if !ok || noun == "" || strings.ContainsAny(noun, "-/.$=") {
		return ""
	}
	t := psCmdlets()
	kind := t.verbs[strings.ToLower(verb)]
	if kind == "" || c.Has("-whatif") || adminProgram(c.Name) {
		return ""
	}
	noun = strings.ToLower(noun)
	if t.local[noun] {
		return ""
	}
	if noun == "command" && !slices.ContainsFunc(c.Args, func(a string) bool { return strings.EqualFold(a, "-filepath") }) {
		return "" // Invoke-Command { … }: its block is read and judged as what it runs (psremoting.go)
	}
	final := psArgIn(c.Args, t.final)
	if kind == "read" && !final {
		return ""
	}
	if kind == "change" && strings.EqualFold(verb, "invoke") && !final && psQueryReads(c.Args) {
		return "" // Invoke-ASCmd -Query 'SELECT … FROM $System.DBSCHEMA_CATALOGS', Invoke-Sqlcmd -Query 'SELECT …': a query
	}
	wipe := slices.ContainsFunc(t.wipe, func(w string) bool { return strings.Contains(noun, w) })
	elsewhere := psRemoteTarget(c) || c.psInvokeRemote() // -ComputerName web1, Invoke-Command's block (psremoting.go)
	for _, p := range t.remote {
		if elsewhere || strings.HasPrefix(noun, p) {
			if wipe || final {
				return "destroy" // Invoke-MgWipeDeviceManagementManagedDevice: the device's data is gone
			}
			if kind == "destroy" && slices.ContainsFunc(t.soft, func(s string) bool { return strings.HasSuffix(noun, s) }) {
				return "change" // Remove-ADGroupMember: access taken away, given back as easily
			}
			return kind
		}
	}
	if !c.PowerShell {
		return "" // update-alternatives, add-apt-repository: a program's name, no cmdlet
	}
	switch {
	case wipe || final:
		return "destroy" // Search-Mailbox -DeleteContent, New-ComplianceSearchAction -Purge
	case kind == "read":
		return ""
	case kind == "destroy" && slices.ContainsFunc(t.soft, func(s string) bool { return strings.HasSuffix(noun, s) }):
		return "change"
	case kind == "destroy" && !psArgIn(c.Args, t.force):
		return "change" // Remove-DfsnFolder without -Force: PowerShell asks for each before it goes
	}
	return kind
}

// psCmdlet: c, read from PowerShell text, is named Verb-Noun with an
// approved verb (pscmdlets.txt): its verb says what it does, so the words
// after it are its parameters' values (Get-Help Remove-ADUser, Get-Command
// Remove-*), no subcommand of an unknown program.
func (c *Cmd) psCmdlet() bool {
	if !c.PowerShell {
		return false
	}
	verb, noun, ok := strings.Cut(c.Name, "-")
	return ok && noun != "" && psCmdlets().verbs[strings.ToLower(verb)] != ""
}

// psArgIn: one of args, lower-cased, is in set; an option given $false
// (-Permanent:$false, -Force $false) does not count.
func psArgIn(args []string, set map[string]bool) bool {
	for i, a := range args {
		l := strings.ToLower(a)
		if !set[l] {
			continue
		}
		if i+1 < len(args) && strings.HasPrefix(l, "-") && strings.EqualFold(args[i+1], "$false") {
			continue
		}
		return true
	}
	return false
}

// PSFedByAll reports whether the i-th command of f, a cmdlet whose verb
// changes (pscmdlets.txt bulk), is fed by a
// pipe from a Get- cmdlet that lists every object (-All, -Filter *,
// -ResultSize Unlimited): Get-ADUser -Filter * | Disable-ADAccount acts
// on the whole directory, not on one account (win14). The word-splitting
// reading of PowerShell keeps no pipe links, so the line's text says
// whether a | stands between the two.
func PSFedByAll(f *Facts, i int) bool {
	low := ""
	name := strings.ToLower(f.Commands[i].Name)
	if verb, _, _ := strings.Cut(name, "-"); !psCmdlets().bulk[verb] {
		return false // Sync-…, Start-…: every object refreshed, nothing lost
	}
	for j := i - 1; j >= 0; j-- {
		g := &f.Commands[j]
		verb, _, ok := strings.Cut(g.Name, "-")
		if !ok || psCmdlets().verbs[strings.ToLower(verb)] != "read" || !psListsAll(g.Args) {
			continue
		}
		if low == "" {
			low = strings.ToLower(f.Command)
		}
		at := strings.Index(low, strings.ToLower(g.Name))
		if at < 0 {
			continue
		}
		rest := low[at:]
		pipe := strings.IndexByte(rest, '|')
		if pipe >= 0 && strings.Contains(rest[pipe:], name) {
			return true
		}
	}
	return false
}

// psListsAll: a Get- cmdlet's arguments ask for every object.
func psListsAll(args []string) bool {
	for k, a := range args {
		l := strings.ToLower(a)
		next := ""
		if k+1 < len(args) {
			next = strings.Trim(strings.ToLower(args[k+1]), `"'{} `)
		}
		switch {
		case l == "-all" || l == "-all:$true":
			return true
		case (l == "-filter" || l == "-ldapfilter") && (next == "*" || next == "(objectclass=*)" || next == "(objectclass=user)"):
			return true
		case l == "-resultsize" && next == "unlimited":
			return true
		}
	}
	return false
}

// psQueryReads: an Invoke- cmdlet's -Query (-Sql, -QueryText) is one
// query that only reads: SQL's SELECT (a DMV's too), DAX's EVALUATE.
func psQueryReads(args []string) bool {
	n := 0
	for i, a := range args {
		l := strings.ToLower(a)
		v, named := "", false
		for _, o := range []string{"-query", "-sql", "-querytext", "-sqlquery"} {
			if l == o && i+1 < len(args) {
				v, named = args[i+1], true
			} else if rest, ok := strings.CutPrefix(l, o+":"); ok {
				v, named = a[len(a)-len(rest):], true
			}
		}
		if !named {
			continue
		}
		n++
		q := strings.Trim(strings.TrimSpace(v), `"'`)
		if !sqlQueryLit(q) && !daxQuery(q) {
			return false
		}
	}
	return n > 0
}

// daxQuery: a DAX query (EVALUATE …, DEFINE … EVALUATE …): it reads a
// model, changes nothing.
func daxQuery(q string) bool {
	u := strings.ToUpper(strings.TrimSpace(q))
	return (strings.HasPrefix(u, "EVALUATE ") || strings.HasPrefix(u, "DEFINE ") && strings.Contains(u, "EVALUATE ")) && !strings.ContainsAny(u, ";|&`\n<{")
}
