package agent

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/warden-dev/warden/internal/atomicfile"
	"github.com/warden-dev/warden/internal/task"
)

// Agent modes for the other CLIs warden governs: the mode is the CLI's
// name (and its harness, and the task's agent kind). Each runs headless
// in the task's worktree and tmux window, ends on its own (its exit
// status kept in ExitFile), and reads its prompt from a file on stdin:
// never on argv, where a prompt such as "--yolo" would be an option and
// every user could read it (ps). Its state comes from warden's hooks for
// that CLI, which record the task id (TaskIDEnv) with each event.
const (
	ModeCodex   = task.KindCodex
	ModeGemini  = task.KindGemini
	ModeCopilot = task.KindCopilot
)

// CLIModes are the modes of the other CLIs.
var CLIModes = []string{ModeCodex, ModeGemini, ModeCopilot}

// IsCLIMode: mode runs another CLI than Claude Code.
func IsCLIMode(mode string) bool { return slices.Contains(CLIModes, mode) }

// CLIConfig is how warden runs one other CLI.
type CLIConfig struct {
	// Command is its executable ("" = its usual name from PATH).
	Command string
	// Args come after warden's own (a model, a provider: -m, -c …).
	Args []string
}

// cliProgram is the executable name each CLI installs.
var cliProgram = map[string]string{ModeCodex: "codex", ModeGemini: "gemini", ModeCopilot: "copilot"}

// cliInstall says how to get each CLI.
var cliInstall = map[string]string{
	ModeCodex:   "npm install -g @openai/codex",
	ModeGemini:  "npm install -g @google/gemini-cli",
	ModeCopilot: "npm install -g @github/copilot",
}

// cliArgv is the command line of CLI mode after its program: headless,
// the prompt from stdin, and no flag that turns off or skips hooks (no
// --dangerously-bypass-hook-trust, no --yolo): warden's hooks must see
// every tool call. What each needs to run tools unattended at all:
//
//   - Codex: `exec` asks nothing; "-" reads the prompt from stdin.
//     -s danger-full-access unless agent.codex_args picks a sandbox: its
//     workspace-write sandbox keeps a linked worktree's git directory
//     read-only even when named a writable root (measured with 0.171:
//     "Unable to create …/.git/worktrees/<task>/index.lock: Read-only
//     file system"), so the agent could not commit. warden's PreToolUse
//     hook answers each call either way.
//   - Gemini: headless, it offers no shell tool unless a policy allows it:
//     --policy names a file that allows the shell and file edits (warden's
//     BeforeTool hook still answers each call). stdin is the prompt.
//   - Copilot: --allow-tool shell and write, so -p-less headless runs
//     (the prompt piped in) do not stop to ask; its preToolUse hook still
//     answers each call. --no-auto-update: no download mid-task.
func cliArgv(mode, policyFile string, extra []string) []string {
	var argv []string
	switch mode {
	case ModeCodex:
		argv = []string{"exec"}
		if !slices.ContainsFunc(extra, isSandboxFlag) {
			argv = append(argv, "-s", "danger-full-access")
		}
		argv = append(argv, extra...)
		// Last: what follows is the prompt ("-": read it from stdin).
		argv = append(argv, "-")
	case ModeGemini:
		argv = []string{"--policy", policyFile}
		argv = append(argv, extra...)
	case ModeCopilot:
		argv = []string{"--no-auto-update", "--allow-tool", "shell", "--allow-tool", "write"}
		argv = append(argv, extra...)
	}
	return argv
}

// geminiPolicy lets a headless Gemini CLI offer and run its shell and
// file tools (it hides the shell otherwise); each call still goes through
// warden's BeforeTool hook first, which denies what the policy denies.
const geminiPolicy = `# warden: lets this task's Gemini CLI run its tools headless; warden's
# BeforeTool hook answers every call first.
[[rule]]
toolName = ["run_shell_command", "write_file", "replace"]
decision = "allow"
priority = 100
allowRedirection = true
`

// cliEnv is what a CLI needs in its environment beyond the daemon's.
func cliEnv(mode string) []string {
	if mode == ModeCopilot {
		return []string{"COPILOT_AUTO_UPDATE=false"}
	}
	return nil
}

// cliArgvFull is the whole argv of a CLI agent, its program looked up.
func cliArgvFull(s LaunchSpec) ([]string, error) {
	bin := s.CLI.Command
	if bin == "" {
		bin = cliProgram[s.Mode]
	}
	p, err := FindProgram(bin, launchEnv(s))
	if err != nil {
		return nil, fmt.Errorf("%s CLI: %v; install it (%s) or set agent.%s to its path", s.Mode, err, cliInstall[s.Mode], s.Mode)
	}
	return append([]string{p}, cliArgv(s.Mode, s.PolicyFile, s.CLI.Args)...), nil
}

// writeCLIFiles writes what a CLI agent's launch reads: the prompt (its
// stdin) and, for Gemini, the tool policy; both 0600 under the scripts
// directory, outside the worktree, so the agent's commits cannot carry
// them.
func writeCLIFiles(s LaunchSpec) error {
	if err := os.MkdirAll(filepath.Dir(s.PromptFile), 0o700); err != nil {
		return err
	}
	if err := atomicfile.Write(s.PromptFile, []byte(s.Prompt), 0o600); err != nil {
		return fmt.Errorf("task prompt file: %w", err)
	}
	if s.Mode == ModeGemini {
		if err := atomicfile.Write(s.PolicyFile, []byte(geminiPolicy), 0o600); err != nil {
			return fmt.Errorf("Gemini CLI policy file: %w", err)
		}
	}
	return nil
}

// isSandboxFlag: a Codex argument that chooses its sandbox.
func isSandboxFlag(a string) bool {
	return a == "-s" || a == "--sandbox" || strings.HasPrefix(a, "--sandbox=") || strings.HasPrefix(a, "-s=")
}
