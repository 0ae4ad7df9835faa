package policy

// planOp reports whether c makes, reads or drops a plan of changes rather
// than a resource (aws cloudformation create-change-set, delete-change-set,
// gcloud infra-manager previews create: cloudops.txt plan-noun): nothing
// real changes until the plan is executed or applied, which the change
// rules judge on their own.
func planOp(c *Cmd) bool {
	op := c.CloudOp()
	return op != nil && op.Plan
}
