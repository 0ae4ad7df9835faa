package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/hookio"
	"github.com/warden-dev/warden/internal/judge"
	"github.com/warden-dev/warden/internal/pipeline"
	"github.com/warden-dev/warden/internal/session"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// These tests run tool approval the way `warden hook` does: the whole
// pipeline (counters, policy, gates… then the judges), the real
// warden-helper binary, and an httptest server speaking the Messages API
// in place of the model.

// Model ids the fake API scripts by.
const (
	approveHaiku  = "haiku-test"
	approveSonnet = "sonnet-test"
)

// approveEnv: WARDEN_HOME with the store where warden-helper records (and
// finishes lazy verdicts), the anthropic provider pointed at the fake, and
// validation.tool_approve on, strict (validation.lazy off) unless a test
// turns lazy on.
type approveEnv struct {
	t          *testing.T
	api        *messagesAPI
	st         *sqlite.Store
	cfg        *config.Config
	state      *session.State
	project    string
	transcript string
}

func newApproveEnv(t *testing.T, script map[string][]apiReply) *approveEnv {
	api := newMessagesAPI(t, script)
	dir := t.TempDir()
	t.Setenv("WARDEN_HOME", filepath.Join(dir, "home"))
	t.Setenv("HOME", filepath.Join(dir, "userhome"))
	t.Setenv("ANTHROPIC_API_KEY", "sk-test")
	t.Setenv("ANTHROPIC_AUTH_TOKEN", "")
	t.Setenv(judge.NestedEnv, "")
	st := openHomeStore(t)
	cfg := config.Defaults()
	cfg.LLM.Provider = "anthropic"
	cfg.LLM.ModelHaiku, cfg.LLM.ModelSonnet, cfg.LLM.ModelOpus = approveHaiku, approveSonnet, approveSonnet
	cfg.Validation.ToolApprove, cfg.Validation.Lazy = true, false
	project := filepath.Join(dir, "project")
	// The deploy script exists, as in a real project: the policy reads it
	// and finds nothing to flag, so the judge is what decides.
	os.MkdirAll(filepath.Join(project, "scripts"), 0o755)
	os.WriteFile(filepath.Join(project, "scripts", "deploy.sh"), []byte("#!/bin/sh\necho \"deploying to $2\"\n"), 0o755)
	tr := filepath.Join(dir, "transcript.jsonl")
	os.WriteFile(tr, []byte(`{"type":"user","message":{"role":"user","content":"Ship the release: build it and deploy to staging."}}
{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"I will build and then deploy to STAGING-ONLY."}]}}
`), 0o644)
	// Past the first three calls of a session (always strict).
	return &approveEnv{t: t, api: api, st: st, cfg: cfg, state: &session.State{ToolCount: 10}, project: project, transcript: tr}
}

// pre runs PreToolUse through the whole pipeline and renders the output.
func (e *approveEnv) pre(tool string, input map[string]any) (event.Decision, hookio.Output) {
	raw, _ := json.Marshal(input)
	in := event.Input{SessionID: "s1", HookEventName: event.PreToolUse, ToolName: tool, ToolInput: raw,
		TranscriptPath: e.transcript, Cwd: e.project, ToolUseID: fmt.Sprint("tu", time.Now().UnixNano())}
	in.Raw, _ = json.Marshal(in)
	c := &pipeline.Call{Event: event.PreToolUse, Input: &in, State: e.state, Config: e.cfg, Store: e.st,
		ProjectDir: e.project, Enabled: true, Now: time.Now()}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	d, _ := pipeline.Run(ctx, All(), c)
	return d, hookio.Render(event.PreToolUse, d)
}

func (e *approveEnv) bash(cmd string) (event.Decision, hookio.Output) {
	return e.pre("Bash", map[string]any{"command": cmd})
}

// prompt is a user prompt: the judges count prompts (the first call after
// one is strict).
func (e *approveEnv) prompt(text string) {
	in := event.Input{SessionID: "s1", HookEventName: event.UserPromptSubmit, Prompt: text}
	in.Raw, _ = json.Marshal(in)
	pipeline.Run(context.Background(), All(), &pipeline.Call{Event: event.UserPromptSubmit, Input: &in, State: e.state,
		Config: e.cfg, Store: e.st, ProjectDir: e.project, Enabled: true, Now: time.Now()})
}

func (e *approveEnv) wantCalls(n int) []apiCall {
	e.t.Helper()
	cs := e.api.calls()
	if len(cs) != n {
		e.t.Fatalf("%d requests reached the Messages API, want %d: %+v", len(cs), n, cs)
	}
	return cs
}

const approveDeployCmd = "./scripts/deploy.sh --env staging"

func TestToolApproveApproveAllows(t *testing.T) {
	e := newApproveEnv(t, map[string][]apiReply{approveHaiku: {{text: "APPROVE"}}})
	d, out := e.bash(approveDeployCmd)
	if d.Verdict == event.Deny || len(out.Stdout) != 0 {
		t.Fatalf("approved call: %+v %s, want silence", d, out.Stdout)
	}
	cs := e.wantCalls(1)
	if cs[0].Model != approveHaiku || !strings.Contains(cs[0].Prompt, approveDeployCmd) ||
		!strings.Contains(cs[0].Prompt, "Ship the release") || !strings.Contains(cs[0].Prompt, "STAGING-ONLY") ||
		!strings.Contains(cs[0].Prompt, "DENY: <") {
		t.Errorf("tool-approve request %+v", cs[0])
	}
}

func TestToolApproveDenyThenOverturnAllows(t *testing.T) {
	e := newApproveEnv(t, map[string][]apiReply{
		approveHaiku:  {{text: "DENY: deploys without being asked"}},
		approveSonnet: {{text: "**OVERTURN**"}},
	})
	if d, _ := e.bash(approveDeployCmd); d.Verdict == event.Deny {
		t.Fatalf("overturned denial still denies: %+v", d)
	}
	cs := e.wantCalls(2)
	appeal := cs[1]
	if appeal.Model != approveSonnet || !strings.Contains(appeal.Prompt, "deploys without being asked") ||
		!strings.Contains(appeal.Prompt, "User: Ship the release") || !strings.Contains(appeal.Prompt, approveDeployCmd) ||
		strings.Contains(appeal.Prompt, judge.DenialSlot) {
		t.Errorf("appeal request does not carry the denial and the conversation: %+v", appeal)
	}
}

func TestToolApproveDenyThenUpholdDenies(t *testing.T) {
	e := newApproveEnv(t, map[string][]apiReply{
		approveHaiku:  {{text: "DENY: deploys without being asked"}},
		approveSonnet: {{text: "UPHOLD: the user asked for staging, the script targets production"}},
	})
	d, out := e.bash(approveDeployCmd)
	if d.Verdict != event.Deny || d.RuleID != "judge:tool-approve" {
		t.Fatalf("upheld denial: %+v", d)
	}
	var o struct {
		HookSpecificOutput struct {
			PermissionDecision       string `json:"permissionDecision"`
			PermissionDecisionReason string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	json.Unmarshal(out.Stdout, &o)
	r := o.HookSpecificOutput
	if r.PermissionDecision != "deny" || !strings.Contains(r.PermissionDecisionReason, "the script targets production") ||
		!strings.Contains(r.PermissionDecisionReason, "upheld on appeal") {
		t.Errorf("hook output %s, want a deny with the upheld reason", out.Stdout)
	}
	e.wantCalls(2)
	if n := judge.LoadApproveState(e.state).Denials["Bash: "+judge.NormalizeCommand(approveDeployCmd, e.project, "")]; n != 1 {
		t.Errorf("denial count %d, want 1", n)
	}
}

func TestToolApproveLowRiskNeverAsks(t *testing.T) {
	e := newApproveEnv(t, map[string][]apiReply{approveHaiku: {{text: "DENY: no"}}})
	for tool, input := range map[string]map[string]any{
		"Read":                   {"file_path": filepath.Join(e.project, "main.go")},
		"Grep":                   {"pattern": "TODO"},
		"mcp__github__read_file": {"path": "README.md"},
		"mcp__jira__list_issues": {"project": "X"},
	} {
		if d, _ := e.pre(tool, input); d.Verdict == event.Deny {
			t.Errorf("low-risk %s denied: %+v", tool, d)
		}
	}
	e.wantCalls(0)
}

func TestToolApprovePolicyDecidedNeverAsksButCounts(t *testing.T) {
	e := newApproveEnv(t, map[string][]apiReply{approveHaiku: {{text: "APPROVE"}}})
	variants := []string{"git push --force origin main", "git push origin main --force", "cd . && git push --force origin main"}
	for _, cmd := range variants {
		d, _ := e.bash(cmd)
		if d.Verdict != event.Deny || strings.HasPrefix(d.RuleID, "judge:") {
			t.Fatalf("%q: %+v, want the policy's own denial", cmd, d)
		}
	}
	e.wantCalls(0)
	// The policy's three denials count: the fourth variant is escalated. The
	// policy's reason wins the combination, so the escalation reaches
	// Claude as context and the user as a notice.
	d, out := e.bash("FOO=1 git push --force=yes origin main")
	if d.Verdict != event.Deny || !strings.Contains(d.Context, "Stop trying variations") ||
		!strings.Contains(d.SystemMessage, "Claude keeps trying") {
		t.Fatalf("4th similar call: %+v", d)
	}
	if !strings.Contains(string(out.Stdout), "additionalContext") || !strings.Contains(string(out.Stdout), "systemMessage") {
		t.Errorf("hook output %s lacks the escalation", out.Stdout)
	}
	e.wantCalls(0)
}

func TestToolApproveTimeoutFailsOpen(t *testing.T) {
	e := newApproveEnv(t, map[string][]apiReply{approveHaiku: {{text: "DENY: too slow to matter", delay: 5 * time.Second}}})
	e.cfg.LLM.TimeoutMS = 300
	start := time.Now()
	d, _ := e.bash(approveDeployCmd)
	if d.Verdict == event.Deny {
		t.Fatalf("timed-out judge denied: %+v", d)
	}
	if el := time.Since(start); el > 4*time.Second {
		t.Errorf("the hook waited %v for a judge with a 300 ms deadline", el)
	}
}

func TestToolApproveLazyVerdictDeniesNextCallOnce(t *testing.T) {
	e := newApproveEnv(t, map[string][]apiReply{
		approveHaiku:  {{text: "APPROVE"}, {text: "DENY: deletes the release artifacts"}, {text: "APPROVE"}},
		approveSonnet: {{text: "UPHOLD: the user never asked to delete artifacts"}},
	})
	e.cfg.Validation.Lazy = true
	e.prompt("Ship the release.")
	// Call 1: the first after a prompt, strict: approved.
	if d, _ := e.bash("make package"); d.Verdict == event.Deny {
		t.Fatalf("call 1: %+v", d)
	}
	e.wantCalls(1)
	// Call 2: lazy: allowed at once, judged in the background.
	if d, _ := e.bash("rm -rf dist/artifacts"); d.Verdict == event.Deny {
		t.Fatalf("call 2 (lazy) denied at once: %+v", d)
	}
	waitApprovePending(t, e.st, "failed")
	e.wantCalls(3) // haiku DENY, sonnet UPHOLD
	// Call 3 gets call 2's verdict, without a model.
	d, _ := e.bash("ls dist")
	if d.Verdict != event.Deny || d.RuleID != "judge:tool-approve" || !strings.Contains(d.Reason, "the user never asked to delete artifacts") ||
		!strings.Contains(d.Reason, "rm -rf dist/artifacts") {
		t.Fatalf("call 3: %+v, want call 2's upheld denial", d)
	}
	e.wantCalls(3)
	// Call 4: delivered once; strict again after the denial: approved.
	if d, _ := e.bash("ls dist"); d.Verdict == event.Deny {
		t.Fatalf("call 4: %+v, want the verdict delivered only once", d)
	}
	e.wantCalls(4)
}

// waitApprovePending waits for the session's newest lazy verdict to reach state.
func waitApprovePending(t *testing.T, st *sqlite.Store, state string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		for id := int64(1); id < 10; id++ {
			p, err := st.Pending(context.Background(), id)
			if err == nil && p != nil && p.State == state {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no lazy verdict reached %q", state)
}

func TestWorkaroundEscalatesAfterThreeJudgeDenials(t *testing.T) {
	e := newApproveEnv(t, map[string][]apiReply{
		approveHaiku:  {{text: "DENY: wipes the staging database"}},
		approveSonnet: {{text: "UPHOLD: wipes the staging database"}},
	})
	variants := []string{"./scripts/reset-db.sh --target staging-1", "scripts/reset-db.sh --target staging-2",
		"env FOO=1 ./scripts/reset-db.sh --target=x staging-3"}
	for i, cmd := range variants {
		if d, _ := e.bash(cmd); d.Verdict != event.Deny || d.RuleID != "judge:tool-approve" {
			t.Fatalf("variant %d %q: %+v, want a judge denial", i+1, cmd, d)
		}
	}
	e.wantCalls(6)
	d, _ := e.bash("bash -c './scripts/reset-db.sh --target staging-4'")
	if d.Verdict != event.Deny || d.RuleID != "judge:workaround" || !strings.Contains(d.Reason, "ask them how to proceed") ||
		!strings.Contains(d.SystemMessage, "denied 3 times") {
		t.Fatalf("4th similar call: %+v, want the escalation", d)
	}
	e.wantCalls(6)
	// A different call is still judged.
	e.bash("go test ./...")
	e.wantCalls(8)
	// Once the user has spoken, the similar call is judged again.
	e.prompt("Yes, reset staging, it is fine.")
	if d, _ := e.bash("./scripts/reset-db.sh --target staging-5"); d.RuleID == "judge:workaround" {
		t.Errorf("escalation after the user's answer: %+v", d)
	}
	e.wantCalls(10)
}

func TestToolApproveOffNeverAsks(t *testing.T) {
	e := newApproveEnv(t, map[string][]apiReply{approveHaiku: {{text: "DENY: no"}}})
	e.cfg.Validation.ToolApprove = false
	if d, _ := e.bash(approveDeployCmd); d.Verdict == event.Deny {
		t.Fatalf("tool approval off: %+v", d)
	}
	e.wantCalls(0)
	if _, ok := e.state.Values[judge.ApproveStateKey]; ok {
		t.Error("tool approval off still wrote its state")
	}
}

func TestRecentConversationAddsTheLaggingPrompt(t *testing.T) {
	tr := judge.ParseTranscript(strings.NewReader(`{"type":"user","message":{"role":"user","content":"Build it."}}
{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"Building."}]}}
`))
	cases := []struct{ last, want string }{
		{"Build it.", "User: Build it.\nAssistant: Building."},                            // transcript up to date
		{"Now deploy it.", "User: Build it.\nAssistant: Building.\nUser: Now deploy it."}, // transcript lags
		{"", "User: Build it.\nAssistant: Building."},
	}
	for _, c := range cases {
		if got := recentConversation(tr, &judge.State{LastPrompt: c.last}, 30); got != c.want {
			t.Errorf("last prompt %q: %q, want %q", c.last, got, c.want)
		}
	}
}
