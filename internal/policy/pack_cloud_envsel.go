package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// A cloud CLI's environment selector (openstack --os-cloud prod, aws
// --profile staging) names the environment every operation of the line
// acts in; the selectors and the words are data (remoteops.txt
// env-selector, nonprod-env, overwrite-verb). Read only for the cloud
// CLIs' operations (cloudOpOf), after their verb was found: the everyday
// command never reaches it.

// cloudEnvSelected is the value c's environment selector gives, "" when
// the line names none. The selectors are global options, set aside from
// c.Args (tools.txt globals=): the words of the line from c's program on
// are read, to the end of its command.
func cloudEnvSelected(e *Env, c *Cmd) string {
	sel := opsList("env-selector")
	f := strings.Fields(e.F.Command)
	on := false
	for i, a := range f {
		if !on {
			on = a == c.Name || strings.HasSuffix(a, "/"+c.Name)
			continue
		}
		if a == ";" || a == "&&" || a == "||" || a == "|" {
			break
		}
		name, v, ok := strings.Cut(a, "=")
		if !sel[name] {
			continue
		}
		if !ok && i+1 < len(f) {
			v = f[i+1]
		}
		if v = strings.Trim(v, `"'`); v != "" && !strings.HasPrefix(v, "-") && !callfacts.UnknownValue(v) {
			return v
		}
	}
	return ""
}

// cloudEnvClass classes the selected environment: "prod", "nonprod" (a
// shared non-production environment, or a developer's: staging, dev,
// uat), "local" (a cloud on this machine: devstack) or "" (none
// named, or a name that says neither).
func cloudEnvClass(e *Env, c *Cmd) string {
	v := cloudEnvSelected(e, c)
	if v == "" {
		return ""
	}
	if prodWord.MatchString(v) {
		return "prod"
	}
	if opsList("local-env")[strings.ToLower(v)] || opsList("local-env")[strings.ToLower(strings.SplitN(v, "-", 2)[0])] {
		return "local" // devstack, devstack-admin: an all-in-one cloud on the developer's machine
	}
	nonprod := opsList("nonprod-env")
	for _, w := range strings.FieldsFunc(strings.ToLower(v), func(r rune) bool { return !(r >= 'a' && r <= 'z') }) {
		if nonprod[w] {
			return "nonprod"
		}
	}
	return ""
}

// cloudOverwritesProd: op writes a resource's contents over (openstack
// server rebuild, a volume restored) in the production environment the
// selector names: what was there is gone, as by a delete.
func cloudOverwritesProd(e *Env, c *Cmd, op *callfacts.CloudOp) bool {
	return op.Class == "change" && opsList("overwrite-verb")[strings.ToLower(op.Verb)] && cloudEnvClass(e, c) == "prod"
}
