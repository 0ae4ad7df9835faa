package callfacts

import (
	_ "embed"
	"strconv"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// toolsText is what warden knows of each program, one line a program
// (tools.txt says what each field means).
//
//go:embed tools.txt
var toolsText string

// toolSpec is one program's line of tools.txt.
type toolSpec struct {
	args     string     // OpDelete, OpWrite, OpRead, or ArgsNames: what its positional arguments are
	changes  Effect     // it changes files whatever its arguments
	trees    bool       // it deletes whole trees whatever its flags
	recovers bool       // it moves its targets to the trash: a folder whole, a file alone
	sets     PathEffect // PathPermissions or PathTruncate on its targets
	copies   bool       // its last argument is a destination, overwritten
	subs     map[string]bool
	inplace  []string
	globals  map[string]bool // options before the subcommand that take a value
	anywhere map[string]bool // the globals it takes anywhere on the line (dashwords.go)
	values   map[string]bool // its options that take a value (dashwords.go)
	switches map[string]bool // options before the subcommand that take none, set aside
	chdir    []string
	dry      []string
	// acts: options (or KEY=VALUE arguments) without which the program
	// only prints what it would do (gh-ost --execute, kops update
	// --yes); actsIn: the subcommands that default applies to (none:
	// every one), written as reports= is
	acts, actsIn []string
	// onlyDry: the line has acts=, reports=, observes= or needs= and says
	// nothing else but when it is a dry run or only reads (describes):
	// warden still has no table of
	// what the program does, so it stays unknown to the verb rules
	onlyDry bool
	reports []string // subcommands or options that only print what is there
	keeps   []string // subcommands that only add a restore point (zfs snapshot)
	names   []string // subcommands that take paths as names only (git check-ignore)
	removes *sourceRemover
	// package managers: the subcommands (or options) that remove
	// packages and that list the installed ones, the options that remove
	// every package, and whether it manages the system's packages
	uninstall, inventory, all []string
	system                    bool
	// out: options whose value is a file it overwrites (curl -o); into:
	// a directory it writes its files into, over what is there (tar -C,
	// unzip -d); when: the options, subcommands or mode letters without
	// which out and into name no output (tar -x); program: the options
	// that give an in-place editor its program (else its first argument)
	out, into, when, program []string
	// empties: the directory it empties before writing into it
	empties *emptier
	// observes: it only watches (captures packets, scans, takes an
	// inventory): run as root, its one write is its out= file; the
	// listed options make it do more (tcpdump -z runs a command)
	observes    bool
	observesNot []string
	// needs: with observes, it only watches when one of these options
	// is given (gdb -batch, exim -bp); scans: its positionals are
	// targets on the network (nmap, masscan), not this machine's names
	needs []string
	scans bool
}

// sourceRemover: with one of flags the program deletes its sources after
// archiving or sending them; skip positionals come before them (the
// archive), dest says the last one is the destination.
type sourceRemover struct {
	flags []string
	skip  int
	dest  bool
}

// ArgsNames: a program's positional arguments name things that are not
// files (zfs datasets, LVM volumes, pools): they are no path targets.
const ArgsNames = "names"

// NamesArgs reports whether program name's arguments name datasets,
// volumes or pools rather than files (tools.txt args=names).
func NamesArgs(name string) bool { return tool(name).args == ArgsNames }

// TrashesFileOnly reports whether c moves p to the trash and p is a file,
// not a folder (trash-put ~/notes/todo.md): the trash keeps it, so it is
// no harsher than rm of the same file; a folder goes whole (a tree).
func TrashesFileOnly(c *Cmd, p, home string) bool {
	return c.tool().recovers && !strings.ContainsAny(p, "*?[") && !movedTree(p, home, c.Dir) && !strings.HasSuffix(p, "/")
}

// noTool is the spec of a program tools.txt does not list.
var noTool = &toolSpec{}

// toolTable is tools.txt read once, on first use (most hooks never ask
// for more than a few lines of it). A malformed table is a build error the
// package's tests catch, so it panics. A sync.Once rather than
// sync.OnceValue: tool() is asked several times for every command, and
// Once's fast path inlines.
func toolTable() map[string]*toolSpec {
	toolsOnce.Do(func() {
		t, err := parseTools(toolsText)
		if err != nil {
			panic(err)
		}
		toolsByName = t
	})
	return toolsByName
}

var (
	toolsOnce   sync.Once
	toolsByName map[string]*toolSpec
)

// tool is the spec of program name (an empty one when it is not listed).
func tool(name string) *toolSpec {
	if s := toolTable()[name]; s != nil {
		return s
	}
	return noTool
}

func parseTools(src string) (map[string]*toolSpec, error) {
	out := map[string]*toolSpec{}
	set := func(l string) map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.Split(l, ",") {
			m[w] = true
		}
		return m
	}
	err := datatable.Read("tools.txt", src, 1, func(l datatable.Line) error {
		f := l.Fields
		s := &toolSpec{}
		if out[f[0]] != nil {
			return l.Errorf("%s is listed twice", f[0])
		}
		out[f[0]] = s
		s.onlyDry = true
		for _, field := range f[1:] {
			k, v, _ := strings.Cut(field, "=")
			if !describes[k] {
				s.onlyDry = false
			}
			switch k {
			case "args":
				if v != OpDelete && v != OpWrite && v != OpRead && v != ArgsNames {
					return l.Errorf("args=%s: want delete, write, read or names", v)
				}
				s.args = v
			case "changes":
				if v != string(EffectWrite) && v != string(EffectDelete) {
					return l.Errorf("changes=%s: want write or delete", v)
				}
				s.changes = Effect(v)
			case "trees":
				s.trees = true
			case "recovers":
				s.recovers = true
			case "copies":
				s.copies = true
			case "sets":
				if v != string(PathPermissions) && v != string(PathTruncate) {
					return l.Errorf("sets=%s: want permissions or truncate", v)
				}
				s.sets = PathEffect(v)
			case "subs":
				s.subs = set(v)
			case "inplace":
				s.inplace = strings.Split(v, ",")
			case "globals":
				s.globals = set(v)
			case "anywhere":
				s.anywhere = set(v) // bare: every global, filled in below
			case "values":
				s.values = set(v)
			case "switches":
				s.switches = set(v)
			case "chdir":
				s.chdir = strings.Split(v, ",")
			case "dry":
				s.dry = strings.Split(v, ",")
			case "reports":
				s.reports = strings.Split(v, ",")
			case "acts":
				s.acts = strings.Split(v, ",")
			case "actsin":
				s.actsIn = strings.Split(v, ",")
			case "keeps":
				s.keeps = strings.Split(v, ",")
			case "names":
				s.names = strings.Split(v, ",")
			case "uninstall":
				s.uninstall = strings.Split(v, ",")
			case "inventory":
				s.inventory = strings.Split(v, ",")
			case "all":
				s.all = strings.Split(v, ",")
			case "system":
				s.system = true
			case "observes":
				s.observes = true
				if v != "" {
					s.observesNot = strings.Split(v, ",")
				}
			case "needs":
				s.observes = true // it watches, when one of these is given
				s.needs = strings.Split(v, ",")
			case "scans":
				s.scans = true
			case "out":
				s.out = strings.Split(v, ",")
			case "into":
				s.into = strings.Split(v, ",")
			case "when":
				s.when = strings.Split(v, ",")
			case "program":
				s.program = strings.Split(v, ",")
			case "empties":
				s.empties = parseEmptier(v)
			case "removes":
				p := strings.Split(v, ":")
				skip, err := strconv.Atoi(p[len(p)-1])
				dest := false
				if p[len(p)-1] == "dest" && len(p) == 3 {
					skip, err = strconv.Atoi(p[1])
					dest = true
				}
				if len(p) < 2 || err != nil {
					return l.Errorf("removes=%s: want FLAGS:SKIP or FLAGS:SKIP:dest", v)
				}
				s.removes = &sourceRemover{flags: strings.Split(p[0], ","), skip: skip, dest: dest}
			default:
				return l.Errorf("unknown field %q (see the comment at the top)", k)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, s := range out {
		if s.anywhere[""] {
			s.anywhere = s.globals
		}
		s.onlyDry = s.onlyDry && (s.acts != nil || s.observes || s.needs != nil || s.reports != nil)
	}
	return out, nil
}

// describes are the fields that say only when a program prints or
// watches (acts, dry, reports, observes…): a line of them alone leaves
// the program unknown to the verb rules, so its destroy words (ceph osd
// pool delete, rbd rm) are judged as an unknown program's
var describes = map[string]bool{"acts": true, "actsin": true, "dry": true, "reports": true, "observes": true, "needs": true, "scans": true, "out": true, "globals": true, "anywhere": true, "values": true}

// toolArgs sets aside program name's global options before its
// subcommand (tools.txt globals and switches), wherever the user put
// them, so the subcommand is the first positional: `aws --profile p s3
// rb`, `kubectl --context prod delete`, `git -C dir clean`. dir is the
// directory the command works in, changed by its chdir options; remote
// is the "option=value" of the last global naming where it talks to (a
// kube context, a Docker host, an API endpoint), which they set aside too.
func toolArgs(s *toolSpec, args []string, dir, home string) (kept []string, _ string, remote string) {
	if s.globals == nil && s.switches == nil {
		return args, dir, ""
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" && i+1 < len(args) && s.subs[args[i+1]] {
			continue // git -- reset --hard: "--" ends the global options, the subcommand follows
		}
		if a == "--" || !strings.HasPrefix(a, "-") || a == "-" {
			if kept == nil {
				return args[i:], dir, remote
			}
			return append(kept, args[i:]...), dir, remote
		}
		val, dropped := "", true
		switch k, v, eq := strings.Cut(a, "="); {
		case s.globals[a] && i+1 < len(args):
			val = args[i+1]
			i++
		case eq && s.globals[k]:
			a, val = k, v
		case len(a) > 2 && a[1] != '-' && s.globals[a[:2]]:
			a, val = a[:2], a[2:] // -Cdir, -cname=value
		case s.switches[a]:
		default:
			kept, dropped = append(kept, a), false
		}
		if dropped {
			for _, o := range s.chdir {
				if a == o {
					dir = NormPath(val, dir, home)
				}
			}
			if endpointGlobals[a] && val != "" {
				remote = a + "=" + val
			}
		}
	}
	return kept, dir, remote
}

// endpointGlobals are global options that say where a CLI talks to.
var endpointGlobals = map[string]bool{"--context": true, "--kube-context": true, "-H": true, "--host": true,
	"--endpoint-url": true, "--endpoint": true, "--server": true, "--url": true, "--addr": true, "-http-addr": true}
