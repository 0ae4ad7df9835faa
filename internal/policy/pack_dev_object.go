package policy

import "strings"

// devObject: the object an unknown tool's change verb acts on — its last
// operand, not an option's value — is named for development or tests
// (DEV1.COBOL.SRC, dev-cluster, acme_test_0615), and nothing on the
// command names production: a z/OS developer's own data sets, a dev
// stack. Used for changes (upload, submit, deploy) only: a destroy of a
// dev target may still take the only copy of someone's source.
func devObject(c *Cmd) bool {
	if len(c.Pos) < 2 || prodWord.MatchString(strings.Join(c.Args, " ")) {
		return false
	}
	obj := c.Pos[len(c.Pos)-1]
	if obj == "" || strings.ContainsAny(obj[:1], "/.~$") || strings.Contains(obj, "/") {
		return false // a file (submit local-file /tmp/job.jcl, sidekiqctl quiet tmp/pids/x.pid): its name says nothing of the target
	}
	for i := 1; i < len(c.Args); i++ {
		if c.Args[i] == obj && strings.HasPrefix(c.Args[i-1], "-") {
			return false // --target dev: where it acts, not the object
		}
	}
	if i := strings.IndexByte(obj, '('); i > 0 {
		obj = obj[:i] // a member of a partitioned data set: DEV1.JCL(COMPILE)
	}
	return devName(obj)
}
