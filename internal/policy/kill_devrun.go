package policy

import "strings"

// A kill pattern naming the project being run by its own build or task
// tool, whatever the tool: an agent starts `npm start`, `./gradlew
// bootRun`, `mvn jetty:run`, `cargo run --bin api`, `ng test`, `sbt ~run`,
// `python3 -m http.server 8000` or `mix phx.server` to try its change and
// stops it again by that command line. These processes are dev sessions
// by what they do (run, start, test, serve or watch the project in a
// working copy), never a machine's service, so ending them is routine.
// Still asked: the tool alone (pkill -f npm, pkill -f gradle: its
// daemons and other projects' builds), other verbs (publish, install),
// and a shared job's words (worker, queue, scheduler: sharedJob).

// projectRunners are build and task tools that run the project in the
// folder they start in.
var projectRunners = map[string]bool{"npm": true, "yarn": true, "pnpm": true, "bun": true, "mvn": true, "mvnw": true, "gradle": true,
	"gradlew": true, "sbt": true, "cargo": true, "swift": true, "flutter": true, "mix": true, "lein": true, "ng": true, "elm": true,
	"make": true, "just": true, "rake": true, "dotnet": true, "stack": true, "cabal": true, "dune": true, "zig": true, "clj": true}

// projectRunVerbs: what such a tool does when it runs the project.
var projectRunVerbs = map[string]bool{"run": true, "start": true, "test": true, "dev": true, "serve": true, "watch": true, "bootrun": true,
	"jetty:run": true, "spring-boot:run": true, "quarkus:dev": true, "~run": true, "~test": true, "reactor": true, "e2e": true,
	"develop": true, "preview": true, "run-server": true, "ring": true, "phx.server": true, "exec:java": true, "tomcat7:run": true}

// devRunCommandLine: p is a project's build tool running the project, or
// a dotted server module (http.server, phx.server) — see above.
func devRunCommandLine(p string) bool {
	if sharedJob(p) || strings.Contains(p, "..") {
		return false
	}
	toks := strings.Fields(strings.ToLower(p))
	for _, t := range toks {
		if strings.HasSuffix(t, ".server") && !strings.HasPrefix(t, "/") || t == "simplehttpserver" {
			return true // python -m http.server, mix phx.server: a language's own dev web server
		}
	}
	if len(toks) < 2 {
		return false
	}
	prog := toks[0]
	prog = prog[strings.LastIndexByte(prog, '/')+1:] // ./gradlew, bin/mvnw
	if prog == "npx" || prog == "uv" || prog == "poetry" || prog == "pipenv" {
		return false // a runner of any package, not of the project
	}
	if !projectRunners[prog] {
		return testRunOfProject(prog, toks[1:])
	}
	for _, t := range toks[1:] {
		if projectRunVerbs[t] || strings.HasPrefix(t, "run:") || strings.HasPrefix(t, "dev:") || strings.HasPrefix(t, "test:") || strings.HasPrefix(t, "start:") {
			return true
		}
	}
	return false
}

// unbracketPattern undoes the grep trick that keeps grep out of its own
// match ([w]ebpack: webpack), so the pattern reads as the program it names.
func unbracketPattern(p string) string {
	if !strings.Contains(p, "[") {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '[' && i+2 < len(p) && p[i+2] == ']' {
			b.WriteByte(p[i+1])
			i += 2
			continue
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

// ownChildrenKill: pkill -P $$ (or $BASHPID) ends the children of the
// agent's own shell — the jobs this very command started — and nothing
// else.
func ownChildrenKill(c *Cmd) bool {
	if c.Name != "pkill" || len(c.Wrappers) > 0 {
		return false
	}
	own := func(v string) bool {
		v = strings.Trim(v, "\"'")
		return v == "$$" || v == "$BASHPID" || v == "${BASHPID}"
	}
	for i, a := range c.Args {
		switch {
		case (a == "-P" || a == "--parent") && i+1 < len(c.Args) && own(c.Args[i+1]):
			return true
		case strings.HasPrefix(a, "--parent=") && own(strings.TrimPrefix(a, "--parent=")), strings.HasPrefix(a, "-P") && len(a) > 2 && own(a[2:]):
			return true
		}
	}
	return false
}

// testFolders hold a project's tests.
var testFolders = map[string]bool{"test": true, "tests": true, "spec": true, "specs": true, "features": true, "e2e": true, "__tests__": true, "testing": true}

// testRunOfProject: program prog (not a runtime many programs share, not
// a shared server) runs the project's tests — an argument is a relative
// test folder or test file (ptw tests/, behave features/, bats
// test/unit.bats, rspec spec/models): a test runner the agent started.
func testRunOfProject(prog string, args []string) bool {
	if len(prog) < 2 || broadProcNames[prog] || systemProcesses[prog] || strings.ContainsAny(prog, "^$[](){}|+?*.\\") {
		return false
	}
	for _, suf := range sharedSuffixes {
		if strings.HasSuffix(prog, suf) {
			return false
		}
	}
	for _, a := range args {
		if strings.HasPrefix(a, "-") || strings.HasPrefix(a, "/") || strings.HasPrefix(a, "~") || strings.ContainsAny(a, "$*") {
			continue
		}
		a = strings.TrimPrefix(a, "./")
		first, _, _ := strings.Cut(a, "/")
		base := a[strings.LastIndexByte(a, '/')+1:]
		if testFolders[first] && (strings.Contains(a, "/") || testFolders[a]) || strings.HasPrefix(base, "test_") ||
			strings.Contains(base, "_test.") || strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") {
			return true
		}
	}
	return false
}
