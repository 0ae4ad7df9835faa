package policy

import (
	"regexp"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// s24 interpreter code: a destroy that takes no argument. Code that
// builds a client from a library (InvenTreeAPI(), GIS(url), Jira(url),
// gitlab.Gitlab(url, token)), lists what the service holds through it
// (StockItem.list(api, part=…), project.issues.list(), c.search(…)) and
// calls .delete() / .destroy() / .purge() on each item destroys them one
// by one, as the service's CLI `… delete` would. The delete word sits on
// the item, not on the client, with no argument naming what
// (client-destroy-call reads delete_x(arg) on the client), so nothing
// judged it unless a literal named production (prod-destroy-call).
//
// Read here: the names the code binds to a client it constructs (a
// capitalized class called, a connect/client/login/session call, from a
// library, not a file, a path, a data frame or a GUI window), what comes
// from them (NAME = client.x(…), for NAME in client.y(…), list
// comprehensions, JavaScript's for…of and forEach, Ruby's each blocks),
// and a class's own listing (StockItem.list(api…), Model.objects.filter(…)
// is read the same only when the code made a client); a bare destroy
// method called on any of those is the service's data going. The level is
// ask (the environment is unsaid); a literal naming production is
// prod-destroy-call's deny; a client on this machine, a sandbox, a test
// double, a dev instance or a dry run is not flagged.

// bareDestroy: a destroy-named method called with no argument, on the
// receiver chain before it (item.delete(), s.destroy(), r.purge()).
var bareDestroy = re(`\b([A-Za-z_]\w*)((?:\s*\.\s*\w+(?:\([^()]*\))?)*)\s*\.\s*(delete|destroy|purge|wipe|trash|erase|expunge|nuke|obliterate|terminate|deregister|decommission|remove|drop|truncate|delete_all|destroy_all|deleteAll|destroyAll|destroy!|delete!)\s*(?:\(\s*\)|[;\s\]\)}]|$)`)

// listedBound: a name bound by a loop or a comprehension to what an
// expression yields: Python's for NAME in EXPR (also in a
// comprehension), JavaScript's for (const NAME of EXPR), EXPR.forEach(
// NAME => / (NAME) =>, Ruby's EXPR.each { |NAME| / do |NAME|.
var listedBound = re(`\bfor\s+(?:\(\s*)?(?:const\s+|let\s+|var\s+)?(\w+)\s+(?:in|of)\s+(?:await\s+)?([^\n:\]]+)|([\w.]+(?:\([^()]*\))?(?:\.\w+(?:\([^()]*\))?)*)\.(?:forEach|each|map|each_with_index|find_each)\s*(?:\(\s*(?:async\s+)?\(?\s*(\w+)|\s*(?:\{|do)\s*\|\s*(\w+))`)

// listedClientBound: a name bound to a constructed client or a call on
// one: NAME = [await] [new] CALL(…).
var listedClientBound = re(`(?m)(?:^|[;\s({])(?:const\s+|let\s+|var\s+|\$)?(\w+)\s*=\s*(?:await\s+)?(?:new\s+)?([\w.:]+)\s*\(`)

// listedLocalRoots: roots whose objects are this machine's: files,
// paths, processes, data frames, GUI windows, the language's own
// containers and test doubles. A destroy on them is a path's or a
// widget's, judged elsewhere or harmless.
var listedLocalRoots = map[string]bool{"os": true, "shutil": true, "pathlib": true, "Path": true, "PurePath": true, "path": true, "glob": true, "subprocess": true, "fs": true,
	"FileUtils": true, "File": true, "Dir": true, "Pathname": true, "tempfile": true, "TemporaryDirectory": true, "NamedTemporaryFile": true, "open": true, "io": true,
	"sqlite3": true, "json": true, "csv": true, "pd": true, "pandas": true, "np": true, "numpy": true, "polars": true, "pl": true, "dict": true, "list": true, "set": true,
	"range": true, "enumerate": true, "zip": true, "sorted": true, "reversed": true, "filter": true, "map": true, "str": true, "re": true, "itertools": true, "collections": true,
	"tk": true, "tkinter": true, "Tk": true, "Toplevel": true, "QApplication": true, "QWidget": true, "wx": true, "plt": true, "matplotlib": true, "cv2": true,
	"threading": true, "Thread": true, "multiprocessing": true, "Pool": true, "asyncio": true, "queue": true, "Queue": true, "self": true, "this": true, "cls": true,
	"Mock": true, "MagicMock": true, "mock": true, "unittest": true, "pytest": true, "logging": true, "argparse": true, "Object": true, "Array": true, "Map": true, "Set": true,
	"JSON": true, "console": true, "process": true, "child_process": true, "Buffer": true, "document": true, "window": true, "ENV": true, "ARGV": true, "Hash": true}

// listedClientCall: a call that makes a client of a service: a class
// constructed (capitalized last part: InvenTreeAPI, gitlab.Gitlab,
// Jira), a connect/client/session/login call, a Ruby Class.new.
func listedClientCall(call string) bool {
	call = strings.TrimSuffix(call, ".new")
	root, _, _ := strings.Cut(call, ".")
	root, _, _ = strings.Cut(root, "::")
	if listedLocalRoots[root] {
		return false
	}
	last := call
	if i := strings.LastIndexAny(call, ".:"); i >= 0 {
		last = call[i+1:]
	}
	if last == "" || listedLocalRoots[last] {
		return false
	}
	if last[0] >= 'A' && last[0] <= 'Z' {
		return true
	}
	l := strings.ToLower(last)
	return strings.Contains(l, "connect") || strings.Contains(l, "client") || strings.Contains(l, "session") || strings.HasPrefix(l, "login") || strings.HasSuffix(l, "api") || l == "from_env" || l == "from_url"
}

// listedExprRemote: an expression a loop walks comes from a client: its
// root is a client name, or it is a class's listing given a client
// (StockItem.list(api, …)), or a class's listing when the code made one.
func listedExprRemote(expr string, clients map[string]bool) bool {
	expr = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(expr), "(["))
	root := expr
	if i := strings.IndexAny(root, ".(:[ "); i >= 0 {
		root = root[:i]
	}
	if root == "" || listedLocalRoots[root] {
		return false
	}
	if clients[root] {
		return true
	}
	// StockItem.list(api, part=1423), Issue.where(…), Droplet.all(): a
	// class's listing, of the service the code made a client for
	if root[0] >= 'A' && root[0] <= 'Z' && strings.Contains(expr, ".") && strings.Contains(expr, "(") {
		for n := range clients {
			if strings.Contains(expr, "("+n) || strings.Contains(expr, " "+n) || strings.Contains(expr, ","+n) {
				return true
			}
		}
		return len(clients) > 0
	}
	return false
}

// listedDestroy reads code for a bare destroy called on what a client it
// makes yields: "s.delete() on StockItem.list(api, part=1423)" in words,
// "" for none.
func listedDestroy(code string) string {
	if !strings.Contains(code, "(") {
		return ""
	}
	hits := bareDestroy.FindAllStringSubmatch(code, 16)
	if hits == nil {
		return ""
	}
	clients := map[string]bool{}
	for _, m := range listedClientBound.FindAllStringSubmatch(code, 32) {
		root, _, _ := strings.Cut(m[2], ".")
		if clients[root] || listedClientCall(m[2]) {
			clients[m[1]] = true
		}
	}
	// what comes from a client is the client's, three rounds deep
	from := map[string]string{}
	for round := 0; round < 3; round++ {
		grown := false
		for _, m := range listedBound.FindAllStringSubmatch(code, 32) {
			name, expr := m[1], m[2]
			if name == "" {
				name, expr = m[4]+m[5], m[3]
			}
			if name != "" && !clients[name] && listedExprRemote(expr, clients) {
				clients[name], grown = true, true
				from[name] = strings.TrimSpace(expr)
			}
		}
		if !grown {
			break
		}
	}
	for _, h := range hits {
		recv := h[1]
		if listedLocalRoots[recv] {
			continue
		}
		chainRemote := listedClientCall(recv+h[2]) && strings.Contains(h[2], "(") // Gitlab(url).projects.get(1).delete()
		if !clients[recv] && !chainRemote {
			continue
		}
		if (h[3] == "remove" || h[3] == "drop" || h[3] == "truncate") && !clients[recv] {
			continue // x.remove(), df.drop(): a list's or a frame's own unless the item is a client's
		}
		what := recv + strings.TrimSpace(h[2]) + "." + h[3] + "()"
		if f := from[recv]; f != "" {
			if len(f) > 60 {
				f = f[:60] + "…"
			}
			what += " on each of " + f
		}
		return what
	}
	return ""
}

// listedLocal: the code's client is this machine's, a sandbox, a test
// double, a dev instance or a dry run.
func listedLocal(text string) bool {
	text = homePathsOut(text)
	return codeLocalClient.MatchString(text) || clientLocalMaking.MatchString(text) || callfacts.SDKLocal(text) || callfacts.SDKDryRun(text) || clientNamesDev(text)
}

func interpListedDestroyRule() Rule {
	return cmdRuleIf("core.interp:listed-destroy", Ask, "Interpreter code that builds a client of a service from a library (InvenTreeAPI(), gitlab.Gitlab(url, token), Jira(url)) and calls delete()/destroy()/purge() on what it lists or fetches through it ([s.delete() for s in StockItem.list(api, part=1423)], for p in gl.projects.list(): p.delete(), issues.forEach(i => i.destroy())): the service's records are deleted one by one, as its CLI's delete would; the environment is unsaid, so it asks (a literal naming production is core.interp:prod-destroy-call's deny); a client on this machine, a sandbox, a test double, a dev instance or a dry run is not flagged", sdkRunners,
		func(e *Env, c *Cmd) bool { return strings.Contains(c.Payload+c.Heredoc, ".") },
		func(e *Env, c *Cmd) string {
			text := runtimeText(c)
			if text == "" {
				return ""
			}
			what := listedDestroy(text)
			if what == "" || listedLocal(text) {
				return ""
			}
			return c.Name + " code deletes a service's records through its client: " + what
		},
		[]string{`python3 -c "from inventree.api import InvenTreeAPI; from inventree.part import Part; api=InvenTreeAPI('https://inv.acme.io'); [p.delete() for p in Part.list(api, category=12)]"`,
			`python3 -c "import gitlab; gl=gitlab.Gitlab('https://gitlab.acme.io', private_token=t); [p.delete() for p in gl.projects.list(search='scratch')]"`,
			`node -e "const c=new Client({url:'https://cms.acme.io'}); for (const e of await c.entries.list()) { await e.delete() }"`,
			`ruby -e "c = Octokit::Client.new(access_token: t); c.list_issues('acme/app').each { |i| i.destroy }"`},
		[]string{`python3 -c "from inventree.api import InvenTreeAPI; from inventree.part import Part; api=InvenTreeAPI('https://inv.acme.io'); print([p.name for p in Part.list(api, category=12)])"`,
			`python3 -c "import os; [os.remove(f) for f in os.listdir('out')]"`,
			`python3 -c "import tkinter as tk; r=tk.Tk(); r.after(100, r.destroy); r.mainloop()"`,
			`python3 -c "import gitlab; gl=gitlab.Gitlab('http://localhost:8080', private_token=t); [p.delete() for p in gl.projects.list()]"`,
			`python3 -c "from pathlib import Path; [p.unlink() for p in Path('build').glob('*.o')]"`,
			`python3 -c "xs=[1,2,3]; xs.remove(2); print(xs)"`})
}

// connDestroyQuery: a statement that deletes rows or drops what holds
// them, in SQL or q (delete from `t, drop table, truncate).
var connDestroyQuery = re("(?i)^\\s*(?:delete\\s|drop\\s|truncate\\s)|^\\s*\\.\\s*Q\\.(?:dpft|en)\\b|![-]?\\s*`")

// connQueryDestroyProd is the destroying statement code hands a
// connection it opens on a production host (c =
// kx.SyncQConnection('kdb-prod-hdb01', 5012); c('delete from `quote …'),
// "" for none; and the production name.
func connQueryDestroyProd(code string) (query, prod string) {
	for _, m := range codeConnBound.FindAllStringSubmatch(code, 4) {
		call := regexp.MustCompile(`\b` + regexp.QuoteMeta(m[1]) + `\s*(?:\.\s*(?:execute|exec|query|sync|run)\s*)?\(\s*['"]([^'"]+)['"]`)
		for _, q := range call.FindAllStringSubmatch(code, 8) {
			if connDestroyQuery.MatchString(q[1]) && !sqlReadOnly(q[1]) {
				if prod = codeNamesProd(code); prod != "" {
					return q[1], prod
				}
			}
		}
	}
	return "", ""
}

func interpConnDestroyProdRule() Rule {
	return cmdRuleIf("core.interp:conn-destroy-prod", Deny, "Interpreter code that opens a connection to a host its literals name production (kx.SyncQConnection('kdb-prod-hdb01', 5012), pyodbc.connect('…db-prod…')) and hands it a statement that deletes rows or drops what holds them (c('delete from `quote where …'), cur.execute('TRUNCATE …')): the psql -c 'DELETE …' on production, spelled as a driver call", sdkRunners,
		func(e *Env, c *Cmd) bool {
			t := strings.ToLower(c.Payload + c.Heredoc)
			return strings.Contains(t, "connect") && (strings.Contains(t, "delete") || strings.Contains(t, "drop") || strings.Contains(t, "truncate"))
		},
		func(e *Env, c *Cmd) string {
			text := runtimeText(c)
			if text == "" || listedLocal(text) {
				return ""
			}
			if q, prod := connQueryDestroyProd(text); q != "" {
				if len(q) > 60 {
					q = q[:60] + "…"
				}
				return c.Name + " code runs " + q + " on a connection to production (" + prod + ")"
			}
			return ""
		},
		[]string{"python3 -c \"import pykx as kx; h=kx.SyncQConnection('tick-prod-rdb', 5010); h('delete from `trade where sym=`IBM')\"",
			`python3 -c "import pyodbc; c=pyodbc.connect('DSN=erp-prod'); c.execute('DELETE FROM invoices WHERE year < 2020'); c.commit()"`,
			`python3 -c "import psycopg; c=psycopg.connect(host='pg-prod-01.acme.internal', dbname='app'); c.execute('TRUNCATE audit_log'); c.commit()"`},
		[]string{"python3 -c \"import pykx as kx; h=kx.SyncQConnection('tick-prod-rdb', 5010); print(h('select count i by sym from trade'))\"",
			"python3 -c \"import pykx as kx; h=kx.SyncQConnection('tick-dev-rdb', 5010); h('delete from `trade')\"",
			`python3 -c "import pyodbc; c=pyodbc.connect('DSN=erp-prod'); print(c.execute('SELECT count(*) FROM invoices').fetchone())"`})
}

// psProdRemove: a PowerShell remove or clear of a module's objects (the
// reading calls it a change when the cmdlet would ask first: no -Force)
// on a line that names production (Connect-PIDataArchive
// -PIDataArchiveMachineName pisrv-prod01; … Remove-PIPoint -Connection
// $c): the objects are production's, removed without a person's yes in
// a non-interactive run.
func interpPSProdRemoveRule() Rule {
	return Rule{ID: "core.interp:ps-remove-prod", Mode: Deny, Tools: shellTools, On: On(FactWriteEffect | FactDeleteEffect),
		Desc: "A PowerShell Remove- or Clear- cmdlet of a module that administers a server (Remove-PIPoint, Remove-DfsnFolder, Clear-…) on a line that names a production server it connects to: production's objects removed, the way the module's own remove on production would",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				if !c.PowerShell {
					continue
				}
				verb, _, _ := strings.Cut(c.Name, "-")
				if v := strings.ToLower(verb); v != "remove" && v != "clear" {
					continue
				}
				if k := c.PSRemoteCmdlet(); k != "change" || e.localOnly(i) {
					continue // destroy: ps-remote-destroy denies already; soft removes (members, tags) stay asked
				}
				if strings.HasSuffix(strings.ToLower(c.Name), "member") || strings.HasSuffix(strings.ToLower(c.Name), "permission") || strings.HasSuffix(strings.ToLower(c.Name), "tag") {
					continue
				}
				for _, w := range strings.FieldsFunc(e.F.Command, func(r rune) bool {
					return !(r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
				}) {
					if strings.HasPrefix(w, "-") || len(w) > 80 {
						continue
					}
					if prodWord.MatchString(w) && !devName(w) {
						return c.Name + " removes objects on production (" + w + ")"
					}
				}
			}
			return ""
		},
		Catch: []string{`pwsh -Command '$c = Connect-PIDataArchive -PIDataArchiveMachineName pi-prod02; Remove-PIPoint -Connection $c -Name WP7.FLOW'`,
			`pwsh -c "Remove-DfsnFolder -Path \\corp-prod\files\old"`, `pwsh -Command 'Connect-VIServer vc-prod01; Remove-Folder -Folder old-vms'`},
		Allow: []string{`pwsh -Command '$c = Connect-PIDataArchive -PIDataArchiveMachineName pi-dev02; Remove-PIPoint -Connection $c -Name WP7.FLOW'`,
			`pwsh -Command '$c = Connect-PIDataArchive -PIDataArchiveMachineName pi-prod02; Get-PIPoint -Connection $c -Name WP7.FLOW'`,
			`pwsh -c "Remove-Item ./prod-build -Recurse"`}}
}

// interpListedDestroyProdRule: the same reading where a literal of the
// code names production (Gitlab('https://gitlab-prod.acme.io', …), a
// host db-prod-01): production's records deleted one by one. The loop's
// item is often a one-letter name (p, r, s) that prod-destroy-call skips
// as a process handle; here the name is known to come from the client.
func interpListedDestroyProdRule() Rule {
	return cmdRuleIf("core.interp:listed-destroy-prod", Deny, "Interpreter code that builds a client from a library on a host or instance its literals name production and calls delete()/destroy()/purge() on what it lists or fetches through it ([p.delete() for p in Gitlab('https://gitlab-prod.acme.io', …).projects.list()]): production's records deleted one by one, as the service's CLI delete on production", sdkRunners,
		func(e *Env, c *Cmd) bool { return strings.Contains(c.Payload+c.Heredoc, ".") },
		func(e *Env, c *Cmd) string {
			text := runtimeText(c)
			if text == "" {
				return ""
			}
			prod := codeNamesProd(text)
			if prod == "" {
				return ""
			}
			what := listedDestroy(text)
			if what == "" || listedLocal(text) {
				return ""
			}
			return c.Name + " code deletes production's records through its client (" + prod + "): " + what
		},
		[]string{`python3 -c "import gitlab; gl=gitlab.Gitlab('https://gitlab-prod.acme.io', private_token=t); [p.delete() for p in gl.projects.list(search='tmp')]"`,
			`python3 -c "from inventree.api import InvenTreeAPI; from inventree.stock import StockItem; api=InvenTreeAPI('https://inventory-prod.acme.io'); [s.delete() for s in StockItem.list(api, location=7)]"`,
			`node -e "const c=new Client({url:'https://cms-production.acme.io'}); for (const e of await c.entries.list()) { await e.delete() }"`},
		[]string{`python3 -c "import gitlab; gl=gitlab.Gitlab('https://gitlab-prod.acme.io', private_token=t); print([p.name for p in gl.projects.list()])"`,
			`python3 -c "import gitlab; gl=gitlab.Gitlab('https://gitlab-staging.acme.io', private_token=t); [p.delete() for p in gl.projects.list(search='tmp')]"`,
			`python3 -c "import os; [os.remove(f) for f in os.listdir('prod-out')]"`})
}
