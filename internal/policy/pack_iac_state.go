package policy

import (
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Infrastructure state kept on this machine: a local backend's
// terraform.tfstate (and its .backup, a workspace's terraform.tfstate.d)
// is the only record of which real resources the code made. Deleted,
// emptied or written over, terraform no longer knows them: the next
// apply makes them twice, they can no longer be destroyed by it, and no
// undo brings the file back. The provider cache (.terraform/) and plan
// files are rebuilt by init and plan and stay allowed. Edits of the
// recorded state through the tool itself (state mv, pulumi state
// unprotect, stack import) are listed in policy/remoteops.txt
// (iac-tools, iac-state-edit, iac-stack-edit) and ask.

// stateFile reports whether p is a local backend's state: *.tfstate,
// *.tfstate.backup, terraform.tfstate.d, and a glob of them (rm
// terraform.tfstate*). The copy inside .terraform/ is the backend's cache.
func stateFile(p string) bool {
	if strings.Contains(p, "/.terraform/") {
		return false
	}
	b := strings.TrimRight(path.Base(p), "*")
	return b == "terraform.tfstate.d" || strings.HasSuffix(b, ".tfstate") || strings.HasSuffix(b, ".tfstate.backup") || strings.HasSuffix(b, ".tfstate.")
}

// stateScratch: a state file in a scratch directory or a test fixture is
// a copy, not the record.
func stateScratch(tc callfacts.Touch) bool {
	return tc.Zone == callfacts.ZoneTemp || strings.Contains(tc.Path, "/testdata/") || strings.Contains(tc.Path, "/fixtures/")
}

// iacStateRules: a state file deleted, emptied or replaced (deny); moved
// away (ask: the file still exists where it went).
func iacStateRules() []Rule {
	return []Rule{
		{ID: "core.zones:iac-state-lost", Mode: Deny, Tools: shellTools, On: On(0).OrText("tfstate"),
			Desc: "Deleting, emptying or replacing infrastructure state kept on this machine (terraform.tfstate, its backup, terraform.tfstate.d): the only record of which real resources exist; the .terraform/ cache and plan files are fine",
			Match: func(e *Env) string {
				for _, tc := range e.Touches() {
					if !stateFile(tc.Path) || stateScratch(tc) || strings.HasPrefix(tc.Via, "mv ") {
						continue
					}
					switch tc.Effect {
					case callfacts.PathDelete, callfacts.PathRecursiveDelete, callfacts.PathTruncate:
					case callfacts.PathOverwrite:
						if strings.HasSuffix(tc.Path, ".backup") {
							continue // cp terraform.tfstate terraform.tfstate.backup: a fresh backup
						}
					default:
						continue
					}
					return tc.Via + " loses " + homeRel(tc.Path, e.F.Home) + ", the only record of the infrastructure it describes"
				}
				return ""
			},
			Catch: []string{"rm terraform.tfstate", "rm -f terraform.tfstate*", "rm -rf infra/terraform.tfstate.d", "truncate -s 0 terraform.tfstate", "echo '{}' > envs/prod/terraform.tfstate", "cp old.tfstate terraform.tfstate", "rm infra/envs/prod/*.tfstate"},
			Allow: []string{"rm -rf .terraform", "rm -f tfplan", "rm /tmp/x/terraform.tfstate", "cp terraform.tfstate terraform.tfstate.backup", "cat terraform.tfstate | jq .serial", "rm -rf .terraform/terraform.tfstate"}},
		{ID: "core.zones:iac-state-moved", Mode: Ask, Tools: shellTools, On: On(0).OrText("tfstate"),
			Desc: "Moving infrastructure state kept on this machine away (mv terraform.tfstate …): terraform then sees no resources; the file still exists where it went",
			Match: func(e *Env) string {
				for _, tc := range e.Touches() {
					if stateFile(tc.Path) && !stateScratch(tc) && strings.HasPrefix(tc.Via, "mv ") && (tc.Effect == callfacts.PathDelete || tc.Effect == callfacts.PathRecursiveDelete) {
						return tc.Via + " moves " + homeRel(tc.Path, e.F.Home) + " away: terraform no longer sees the infrastructure it records"
					}
				}
				return ""
			},
			Catch: []string{"mv terraform.tfstate /tmp/", "mv terraform.tfstate.d old/", "cd infra/prod && mv terraform.tfstate terraform.tfstate.old"},
			Allow: []string{"mv tfplan old.tfplan", "mv /tmp/s/terraform.tfstate /tmp/t/", "mv .terraform/terraform.tfstate /tmp/"}},
	}
}

// iacStateEditRule: the recorded state edited through the tool — an
// object moved, unprotected or re-pointed, a stack's state imported over
// it: what the next apply creates or destroys changes.
func iacStateEditRule() Rule {
	return cmdRule("external.systems:iac-state-edit", Ask, "Editing infrastructure state through the tool (terraform state mv/replace-provider, pulumi state move/unprotect/edit, pulumi stack import): what the next apply creates or destroys changes; the tools and words are data (policy/remoteops.txt iac-tools, iac-state-edit, iac-stack-edit)", opsNames("iac-tools"),
		func(e *Env, c *Cmd) string {
			if onlyHelp(c) || e.dryRun(c) {
				return ""
			}
			if sub(c) == "state" && opsList("iac-state-edit")[c.Sub(1)] || sub(c) == "stack" && opsList("iac-stack-edit")[c.Sub(1)] {
				return c.Name + " " + sub(c) + " " + c.Sub(1) + " edits the recorded state of real infrastructure: " + c.String()
			}
			return ""
		},
		[]string{"terraform state mv aws_s3_bucket.a aws_s3_bucket.b", "tofu -chdir=infra state mv a b", "pulumi state unprotect urn:pulumi:prod::x", "pulumi stack import --file old.json", "terraform state replace-provider a b"},
		[]string{"terraform state list", "terraform state show aws_instance.web", "pulumi stack ls", "pulumi state --help", "terraform state mv -dry-run a b"})
}
