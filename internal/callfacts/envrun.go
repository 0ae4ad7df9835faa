package callfacts

import (
	_ "embed"
	"slices"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// envrunText lists, as data, the programs that run another command of
// this machine inside an environment (bundle exec, uv run, conda run,
// mise exec --, nix-shell --run, sbatch --wrap): what they run is read as
// a command of its own, so bundle exec rake db:drop is judged as rake.
//
//go:embed envrun.txt
var envrunText string

// envRun is one line of envrun.txt.
type envRun struct {
	words []wordSet
	vals  map[string]bool // options taking a value before the command
	opts  []string        // options whose value is shell code
	rest  int             // positionals before the command
	dash  bool            // the command only after --
	keep  bool            // the opening word is the command (pnpm turbo run …)
	self  bool            // the command is the program itself again (yarn workspace api run deploy)
	// script: the first operand is a script this interpreter runs
	// (torchrun train.py is python train.py)
	script string
	// as: the command is this program with the words that follow (a
	// dotfile manager's git: chezmoi git -- push is git push)
	as string
	// argv: an opt= option takes the command and the words after it
	// (nix develop -c cargo build), not one line of shell code
	argv bool
}

var envRuns = sync.OnceValue(func() map[string][]envRun {
	m := map[string][]envRun{}
	datatable.Must("envrun.txt", envrunText, 2, func(l datatable.Line) error {
		r := envRun{vals: map[string]bool{}}
		for _, w := range l.Fields[1:] {
			k, v, ok := strings.Cut(w, "=")
			switch {
			case w == "-":
			case w == "dash":
				r.dash = true
			case w == "keep":
				r.keep = true
			case w == "self":
				r.self = true
			case w == "argv":
				r.argv = true
			case ok && k == "as":
				r.as = v
			case ok && k == "script":
				r.script = v
			case ok && k == "opt":
				r.opts = strings.Split(v, ",")
			case ok && k == "vals":
				for _, o := range strings.Split(v, ",") {
					r.vals[o] = true
				}
			case ok && k == "rest":
				if len(v) != 1 || v[0] < '0' || v[0] > '9' {
					return l.Errorf("rest=%q: want one digit", v)
				}
				r.rest = int(v[0] - '0')
			case ok:
				return l.Errorf("unknown key %q", k)
			default:
				alt := wordSet{exact: map[string]bool{}}
				for _, a := range strings.Split(w, "|") {
					alt.exact[a] = true
				}
				r.words = append(r.words, alt)
			}
		}
		m[l.Fields[0]] = append(m[l.Fields[0]], r)
		return nil
	})
	return m
})

// RunnerOwnArgs are the arguments an environment runner of envrun.txt
// reads itself: up to and including the program it starts (uv run python
// -m eval --url http://localhost:6333: the --url is the program's, not
// uv's). Args for any other program, or when the line shows no command.
func (c *Cmd) RunnerOwnArgs() []string {
	if envRuns()[c.Name] == nil {
		return c.Args
	}
	inner, _ := envRunInner(c.Name, c.Args)
	m := len(inner)
	if m < 2 || m > len(c.Args) || !slices.Equal(inner, c.Args[len(c.Args)-m:]) {
		return c.Args // yadm checkout ~ is git checkout ~: the words are the runner's own too
	}
	return c.Args[:len(c.Args)-m+1]
}

// envRunInner is the command an environment runner of envrun.txt runs
// (inner), or the shell code it runs (payload); both empty when args run
// nothing the line shows (conda run alone, sbatch job.sh).
func envRunInner(name string, args []string) (inner []string, payload string) {
	rules := envRuns()[name]
	for i := range rules {
		r := &rules[i]
		rest, ok := openingWords(r.words, args)
		if !ok {
			continue
		}
		if r.keep {
			return args[len(args)-len(rest)-1:], ""
		}
		if len(r.opts) > 0 {
			for j, a := range rest {
				for _, o := range r.opts {
					if a == o && j+1 < len(rest) {
						if r.argv && (j+2 < len(rest) || !strings.ContainsAny(rest[j+1], " ;|&")) {
							return rest[j+1:], "" // nix develop -c rm -rf x
						}
						return nil, rest[j+1]
					}
					if v, ok := strings.CutPrefix(a, o+"="); ok && strings.HasPrefix(o, "--") {
						return nil, v
					}
				}
			}
			continue
		}
		if r.dash {
			// mise exec node@20 -- cmd: the command only after --
			for j, a := range rest {
				if a == "--" && j+1 < len(rest) {
					return rest[j+1:], ""
				}
			}
			continue
		}
		k := commandAt(rest, func(o string) bool { return r.vals[o] }, r.rest)
		switch {
		case k < 0:
		case k == len(rest)-1 && strings.ContainsAny(rest[k], " ;|&"):
			return nil, rest[k] // bsub "rm -rf ~/x": one command line, run by a shell
		case r.self:
			return append([]string{name}, rest[k:]...), ""
		case r.as != "":
			return append([]string{r.as}, rest[k:]...), ""
		case r.script != "":
			return append([]string{r.script}, rest[k:]...), ""
		default:
			return rest[k:], ""
		}
	}
	return nil, ""
}

// remoteReadsScript: a remote command that runs its input as shell code
// (bash -s, sudo sh, python3 -); for cat > f, tee or psql the input is
// data.
func remoteReadsScript(payload string) bool {
	f := strings.Fields(payload)
	for len(f) > 0 && (f[0] == "sudo" || f[0] == "exec" || strings.HasPrefix(f[0], "-") || strings.Contains(f[0], "=")) {
		f = f[1:]
	}
	if len(f) == 0 {
		return true
	}
	name := ProgramName(f[0])
	if !IsShell(name) && !IsInterpreter(name) && name != "su" { // ssh h sudo su - <<EOF: root's login shell reads it
		return false
	}
	for _, a := range f[1:] {
		if a == "-c" || a == "-e" {
			return false
		}
	}
	return true
}

// remotePowerShellStdin reports whether a remote command (ssh's payload)
// is PowerShell told to read its script from its input (powershell
// -Command -, pwsh -File -): what ssh is fed is then PowerShell code.
func remotePowerShellStdin(payload string) bool {
	f := strings.Fields(payload)
	if len(f) == 0 {
		return false
	}
	switch strings.ToLower(ProgramName(f[0])) {
	case "powershell", "pwsh", "powershell.exe", "pwsh.exe":
	default:
		return false
	}
	for i, a := range f[1:] {
		if l := strings.ToLower(a); (l == "-command" || l == "-c" || l == "-file" || l == "-f") && i+2 < len(f) && f[i+2] == "-" {
			return true
		}
	}
	return false
}

//go:embed imageclis.txt
var imageCLIText string

var imageCLIs = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	datatable.Must("imageclis.txt", imageCLIText, 2, func(l datatable.Line) error {
		if len(l.Fields) != 2 {
			return l.Errorf("want an image and a program: %q", l.Text)
		}
		m[l.Fields[0]] = l.Fields[1]
		return nil
	})
	return m
})

// imageCLI is the program an image's entrypoint runs (amazon/aws-cli:
// aws), "" for images not in imageclis.txt.
func imageCLI(image string) string {
	image = strings.ToLower(image)
	if i := strings.LastIndexByte(image, '@'); i > 0 {
		image = image[:i]
	}
	if i := strings.LastIndexByte(image, ':'); i > strings.LastIndexByte(image, '/') {
		image = image[:i]
	}
	if p := imageCLIs()[image]; p != "" {
		return p
	}
	if i := strings.IndexByte(image, '/'); i > 0 && strings.ContainsAny(image[:i], ".:") {
		return imageCLIs()[image[i+1:]] // docker.io/amazon/aws-cli
	}
	return ""
}
