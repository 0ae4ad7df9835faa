package policy

import (
	"context"
	"strings"
	"testing"
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
