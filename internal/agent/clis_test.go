package agent

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/testenv"
)

// Each CLI's command line: headless, the prompt never on it (a prompt
// such as "--yolo" must stay a prompt), and no flag that skips or
// disables the hooks warden's state and policy come from.
func TestCLIArgv(t *testing.T) {
	for _, tc := range []struct {
		mode string
		want []string
	}{
		{ModeCodex, []string{"exec", "-s", "danger-full-access", "-m", "x", "-"}},
		{ModeGemini, []string{"--policy", "/run/t.gemini-policy.toml", "-m", "x"}},
		{ModeCopilot, []string{"--no-auto-update", "--allow-tool", "shell", "--allow-tool", "write", "-m", "x"}},
	} {
		got := cliArgv(tc.mode, "/run/t.gemini-policy.toml", []string{"-m", "x"})
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s argv:\n got %q\nwant %q", tc.mode, got, tc.want)
		}
		for _, a := range got {
			for _, bad := range []string{"--yolo", "--dangerously", "--allow-all", "bypass", "approval-mode"} {
				if strings.Contains(a, bad) {
					t.Errorf("%s argv carries %q, which would skip warden's hooks or approvals: %q", tc.mode, bad, got)
				}
			}
		}
	}
	// A sandbox the user picks in agent.codex_args is theirs alone.
	if got := cliArgv(ModeCodex, "", []string{"--sandbox=workspace-write"}); !slices.Equal(got, []string{"exec", "--sandbox=workspace-write", "-"}) {
		t.Errorf("codex with its own sandbox: %q", got)
	}
}

// The launch script of a CLI agent: the CLI from agent.<cli>, its
// arguments, the prompt as stdin from a 0600 file outside the worktree
// (never on the command line), the task id in the environment, and for
// Gemini the tool policy it names.
func TestCLILaunchScriptPromptOnStdin(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "gemini")
	os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755)
	prompt := "--yolo; rm -rf ~ 'quoted'"
	s := LaunchSpec{Task: "t1", Dir: dir, Prompt: prompt, Mode: ModeGemini, Env: []string{"PATH=/usr/bin"},
		CLI: CLIConfig{Command: bin, Args: []string{"-m", "gemini-3.1-pro-preview"}}, ExitFile: filepath.Join(dir, "run", "t1.exit"),
		PromptFile: filepath.Join(dir, "run", "t1.prompt"), PolicyFile: filepath.Join(dir, "run", "t1.gemini-policy.toml")}
	argv, err := WriteLaunchScript(filepath.Join(dir, "run", "t1.sh"), s)
	if err != nil {
		t.Fatal(err)
	}
	script, _ := os.ReadFile(argv[1])
	if strings.Contains(string(script), "rm -rf") {
		t.Errorf("the prompt is in the launch script:\n%s", script)
	}
	for _, want := range []string{"export WARDEN_TASK_ID=t1\n", bin + " --policy " + s.PolicyFile + " -m gemini-3.1-pro-preview < " + s.PromptFile} {
		if !strings.Contains(string(script), want) {
			t.Errorf("launch script lacks %q:\n%s", want, script)
		}
	}
	if b, err := os.ReadFile(s.PromptFile); err != nil || string(b) != prompt {
		t.Errorf("prompt file %q, %v", b, err)
	}
	if fi, err := os.Stat(s.PromptFile); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("prompt file mode %v, %v; want 0600", fi.Mode().Perm(), err)
	}
	if b, err := os.ReadFile(s.PolicyFile); err != nil || !strings.Contains(string(b), `"run_shell_command"`) || !strings.Contains(string(b), `decision = "allow"`) {
		t.Errorf("policy file %q, %v", b, err)
	}

	// A missing CLI fails before anything runs, saying how to get it.
	s.CLI.Command, s.Mode = "", ModeCodex
	if _, err := AgentArgv(s); err == nil || !strings.Contains(err.Error(), "npm install -g @openai/codex") || !strings.Contains(err.Error(), "agent.codex") {
		t.Errorf("missing codex: %v", err)
	}
}

// A task run by another CLI (a stand-in for codex here: the real ones
// run in e2e) gets its worktree and window, its hooks ensured first, the
// prompt on stdin; it commits, exits 0 and is done by the task's
// criteria. A reply runs the same CLI again on the branch.
func TestCLIAgentRunsInWorktreeDoneByCriteria(t *testing.T) {
	var ensured []string
	fake := filepath.Join(t.TempDir(), "codex")
	os.WriteFile(fake, []byte(`#!/bin/sh
printf '%s\n' "$@" > args.txt
cat > prompt.txt
git add prompt.txt && git -c user.email=a@b -c user.name=agent commit -qm 'from codex'
rm args.txt
`), 0o755)
	r := newRig(t, "", func(c *Config) {
		c.CLIs = map[string]CLIConfig{ModeCodex: {Command: fake}}
		c.EnsureHooks = func(mode string) (string, error) {
			ensured = append(ensured, mode)
			return "hooks checked", nil
		}
	})
	a, err := r.m.Spawn(context.Background(), Spec{Task: "t1", Project: r.project, Prompt: "--yolo please", Criteria: []string{"committed", "clean"}, Mode: ModeCodex})
	if err != nil {
		t.Fatal(err)
	}
	if a.Mode != ModeCodex || a.PermissionMode != "" || !strings.Contains(a.Reason, "hooks checked") {
		t.Errorf("agent record: mode %q, permission mode %q, reason %q", a.Mode, a.PermissionMode, a.Reason)
	}
	script, _ := os.ReadFile(r.m.script("t1"))
	if !strings.Contains(string(script), fake+" exec -s danger-full-access - < "+r.m.promptFile("t1")) || strings.Contains(string(script), "please") {
		t.Errorf("launch script:\n%s", script)
	}
	s, _ := r.untilCleaned(t, "t1", 30*time.Second)
	if s.State != "done" || !strings.Contains(s.Reason, "exited 0 with its criteria met") {
		t.Fatalf("codex agent %s: %s (history %+v)", s.State, s.Reason, s.History)
	}
	if !slices.Equal(ensured, []string{ModeCodex}) {
		t.Errorf("hooks ensured for %v", ensured)
	}
	if got := testenv.Git(t, r.project, "show", "warden/t1:prompt.txt"); got != "--yolo please" {
		t.Errorf("the agent read %q on stdin", got)
	}
	for _, p := range []string{r.m.promptFile("t1"), r.m.script("t1")} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s left after cleanup (%v)", p, err)
		}
	}

	// A reply to the finished task: a follow-up run of the same CLI on
	// its branch, its prompt on stdin again.
	if err := r.m.RequestFollowUp(context.Background(), "t1", "also say goodbye"); err != nil {
		t.Fatal(err)
	}
	a, err = r.m.SpawnFollowUp(context.Background(), Spec{Task: "t1", Project: r.project, Prompt: "--yolo please", Criteria: []string{"committed", "clean"}})
	if err != nil {
		t.Fatal(err)
	}
	if a.Mode != ModeCodex {
		t.Errorf("follow-up mode %q", a.Mode)
	}
	s, _ = r.untilCleaned(t, "t1", 30*time.Second)
	if s.State != "done" {
		t.Fatalf("follow-up %s: %s", s.State, s.Reason)
	}
	if got := testenv.Git(t, r.project, "show", "warden/t1:prompt.txt"); !strings.Contains(got, "also say goodbye") {
		t.Errorf("the follow-up read %q on stdin", got)
	}
	if !slices.Equal(ensured, []string{ModeCodex, ModeCodex}) {
		t.Errorf("hooks ensured for %v", ensured)
	}
}
