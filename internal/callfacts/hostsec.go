package callfacts

import (
	_ "embed"
	"sort"
	"strings"
	"sync"
)

// hostSecText lists, as data, the commands that switch off the host's own
// protection (firewall, SELinux/AppArmor, auditing, Gatekeeper, SIP).
//
//go:embed hostsec.txt
var hostSecText string

// hostSecRules are hostsec.txt read once: per program, each line's words
// (each a set of alternatives).
var hostSecRules = sync.OnceValue(func() map[string][][]map[string]bool {
	m := map[string][][]map[string]bool{}
	for _, line := range strings.Split(hostSecText, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		var words []map[string]bool
		for _, w := range f[1:] {
			alt := map[string]bool{}
			for _, a := range strings.Split(w, "|") {
				alt[fold(a)] = true
			}
			words = append(words, alt)
		}
		m[f[0]] = append(m[f[0]], words)
	}
	return m
})

// DisablesSecurity says how c switches off the host's protection
// (hostsec.txt: "ufw disable", "iptables -P INPUT ACCEPT"), "" when it
// does not; help and dry-run forms change nothing.
func (c *Cmd) DisablesSecurity() string {
	rules := hostSecRules()[c.Name]
	if rules == nil || c.DryRun() || c.Has("--help", "-h") {
		return ""
	}
	args := make([]string, 0, len(c.Args))
	for _, a := range c.Args {
		a = fold(strings.TrimSuffix(a, ".service"))
		if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "--") && k != "--set-default-zone" {
			args = append(args, k, v) // --policy=INPUT
			continue
		}
		args = append(args, a)
	}
	for _, words := range rules {
		i := 0
		for _, a := range args {
			if i < len(words) && words[i][a] {
				i++
			}
		}
		if i == len(words) {
			return c.Name + " " + strings.Join(c.Args, " ") + " switches off the host's protection"
		}
	}
	return ""
}

// fold lowercases a word but not an option: iptables -P (policy) is not
// -p (protocol), -F (flush) not -f (fragments).
func fold(w string) string {
	if strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") {
		return w
	}
	return strings.ToLower(w)
}

// HostSecTools are the programs hostsec.txt names.
func HostSecTools() []string {
	var out []string
	for n := range hostSecRules() {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
