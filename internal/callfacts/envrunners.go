package callfacts

import (
	_ "embed"
	"slices"
	"strings"
	"sync"
)

// envrunners.txt: programs that run a command inside an environment they
// set up (conda run, uv run, poetry run, bundle exec). What they run is
// read as a command of its own, so a deletion or a write reached through
// `conda run -n base python -c …` is the same fact as without it.
//
//go:embed envrunners.txt
var envRunnersText string

type envRunner struct {
	subs    []string
	vals    []string
	after   []string
	payload []string
	dash    bool
}

var envRunners = sync.OnceValue(func() map[string][]envRunner {
	m := map[string][]envRunner{}
	for _, line := range strings.Split(envRunnersText, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || strings.HasPrefix(f[0], "#") {
			continue
		}
		r := envRunner{}
		if f[1] != "-" {
			r.subs = strings.Fields(strings.ReplaceAll(f[1], "|", " "))
		}
		for _, w := range f[2:] {
			k, v, _ := strings.Cut(w, "=")
			switch k {
			case "vals":
				r.vals = strings.Split(v, ",")
			case "after":
				r.after = strings.Split(v, ",")
			case "dash":
				r.dash = true
			case "payload":
				r.payload = strings.Split(v, ",")
			}
		}
		m[f[0]] = append(m[f[0]], r)
	}
	return m
})

// envRunnerCmd returns the command an environment runner runs and its
// label ("conda run"), or the shell code it runs (sbatch --wrap="…").
func envRunnerCmd(name string, args []string) ([]string, string, string) {
	for _, r := range envRunners()[name] {
		rest := args
		label := name
		if len(r.subs) > 0 {
			if len(rest) == 0 || !slices.Contains(r.subs, rest[0]) {
				continue
			}
			label += " " + rest[0]
			rest = rest[1:]
		}
		if len(r.payload) > 0 {
			for i, a := range rest {
				for _, o := range r.payload {
					if v, ok := strings.CutPrefix(a, o+"="); ok {
						return nil, label, v
					}
					if a == o && i+1 < len(rest) {
						return nil, label, rest[i+1]
					}
				}
			}
			continue
		}
		switch {
		case r.dash:
			i := slices.Index(rest, "--")
			if i < 0 {
				continue
			}
			return rest[i+1:], label, ""
		case len(r.after) > 0:
			for i, a := range rest {
				if slices.Contains(r.after, a) && i+1 < len(rest) {
					return rest[i+1:], label, ""
				}
			}
			continue
		}
		for i := 0; i < len(rest); i++ {
			a := rest[i]
			if a == "--" {
				return rest[i+1:], label, ""
			}
			if !strings.HasPrefix(a, "-") {
				if i == len(rest)-1 && strings.ContainsAny(a, " ;|&") {
					return nil, label, a // bsub "rm -rf ~/x": one quoted command line
				}
				return rest[i:], label, ""
			}
			if slices.Contains(r.vals, a) {
				i++
			}
		}
	}
	return nil, "", ""
}
