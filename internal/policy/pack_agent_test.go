package policy

import (
	"context"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/task"
)

func agentPackT() Pack { return AgentPack(AgentTask{ID: "t1", Worktree: TestProject}) }

// The pack's own catch and allow cases, evaluated with the test project as
// the worktree.
func TestAgentPackCases(t *testing.T) {
	p := agentPackT()
	for _, r := range p.Rules {
		if len(r.Catch) < 3 || len(r.Allow) < 3 || !ValidID(r.ID) || packOf(r.ID) != p.Name {
			t.Errorf("%s: id or cases", r.ID)
		}
	}
	for _, res := range RunRuleCases([]Pack{p}) {
		if !res.OK {
			t.Error(res.String())
		}
	}
}

func agentDecision(t *testing.T, task AgentTask, input string) *Result {
	t.Helper()
	c, err := CaseCall(input, TestHome, TestProject)
	if err != nil {
		t.Fatal(err)
	}
	return TestEngine([]Pack{AgentPack(task)}, nil, Options{}).Evaluate(context.Background(), Normalize(c))
}

func TestAgentPackAllowsWhatTheTaskAllows(t *testing.T) {
	task := AgentTask{ID: "t1", Worktree: TestProject}
	if r := agentDecision(t, task, "git push origin warden/t1"); r.Decision != Deny || !strings.Contains(r.Hits[0].Reason, `allow = ["push"]`) {
		t.Errorf("push: %+v", r)
	}
	task.Allow = []string{"push", "rebase"}
	for _, cmd := range []string{"git push origin warden/t1", "git rebase main"} {
		if r := agentDecision(t, task, cmd); r.Decision == Deny {
			t.Errorf("%s denied although allowed: %+v", cmd, r.Hits)
		}
	}
	if r := agentDecision(t, task, "git merge main"); r.Decision != Deny {
		t.Errorf("merge allowed: %+v", r)
	}
}

func TestAgentPackTempDirs(t *testing.T) {
	task := AgentTask{ID: "t1", Worktree: TestProject, Temp: []string{"/scratch"}}
	if r := agentDecision(t, task, "echo x > /scratch/a"); r.Decision == Deny {
		t.Errorf("write to the temp dir denied: %+v", r.Hits)
	}
	if r := agentDecision(t, task, "echo x > /tmp/a"); r.Decision != Deny {
		t.Errorf("/tmp allowed although Temp names only /scratch")
	}
	// The worktree's sibling with a common prefix is outside.
	if r := agentDecision(t, task, "echo x > /home/dev/proj2/a"); r.Decision != Deny {
		t.Errorf("sibling directory with the worktree's prefix allowed")
	}
}

// The rules of denied operations pass their own cases, exist only for a
// task that denies them, and cover exactly the operations a task may
// deny (internal/task.DenyOps) — as the git rules cover task.AllowOps.
func TestAgentPackDeniedOperations(t *testing.T) {
	all := AgentPack(AgentTask{ID: "t1", Worktree: TestProject, Deny: task.DenyOps})
	for _, res := range RunRuleCases([]Pack{all}) {
		if !res.OK {
			t.Error(res.String())
		}
	}
	ids := map[string]bool{}
	for _, r := range all.Rules {
		ids[r.ID] = true
	}
	for _, op := range task.DenyOps {
		if !ids["core.agent:deny-"+op] {
			t.Errorf("task.DenyOps has %q but the agent pack has no core.agent:deny-%s rule", op, op)
		}
	}
	for _, r := range agentPackT().Rules {
		if strings.Contains(r.ID, ":deny-") {
			t.Errorf("%s is in the pack of a task that denies nothing", r.ID)
		}
	}
	// Every allowable operation has its git rule, whose first caught
	// command the allowance lets through.
	rules := map[string]Rule{}
	for _, r := range agentPackT().Rules {
		rules[r.ID] = r
	}
	for _, op := range task.AllowOps {
		r, ok := rules["core.agent:git-"+op]
		if !ok {
			t.Errorf("task.AllowOps has %q but the agent pack has no core.agent:git-%s rule", op, op)
			continue
		}
		if res := agentDecision(t, AgentTask{ID: "t1", Worktree: TestProject, Allow: []string{op}}, r.Catch[0]); res.Decision == Deny {
			t.Errorf("allow %q: %s still denied: %+v", op, r.Catch[0], res.Hits)
		}
	}
}

func TestAgentPackDenyIsPerTask(t *testing.T) {
	readOnly := AgentTask{ID: "t1", Worktree: TestProject, Deny: []string{"write", "network"}}
	plain := AgentTask{ID: "t2", Worktree: TestProject}
	for _, in := range []string{"echo x > notes.txt", "curl -s https://example.com", `{"tool_name":"WebSearch","tool_input":{"query":"x"}}`} {
		if r := agentDecision(t, readOnly, in); r.Decision != Deny || !strings.Contains(r.Hits[0].Reason, "task t1 denies its agent") {
			t.Errorf("%s in the read-only task: %+v", in, r)
		}
		if r := agentDecision(t, plain, in); r.Decision == Deny {
			t.Errorf("%s denied in a task that denies nothing: %+v", in, r.Hits)
		}
	}
	// A denial wins over an allowance: allow push with deny network.
	if r := agentDecision(t, AgentTask{ID: "t3", Worktree: TestProject, Allow: []string{"push"}, Deny: []string{"network"}}, "git push"); r.Decision != Deny {
		t.Errorf("push with network denied: %+v", r)
	}
}
