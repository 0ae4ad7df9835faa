package agent

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/warden-dev/warden/internal/atomicfile"
	"github.com/warden-dev/warden/internal/event"
)

// Modes of running an agent.
const (
	// ModeInteractive runs Claude Code's TUI with the prompt as its first
	// message: the user can attach and talk to it.
	ModeInteractive = "interactive"
	// ModeHeadless runs `claude -p`: one prompt, no TUI.
	ModeHeadless = "headless"
	// ModeCommand runs Command, a template for other agents (Codex CLI,
	// Gemini CLI…): {prompt}, {prompt_file}, {task} and {dir} are filled in.
	ModeCommand = "command"
)

// TaskIDEnv carries the task id into the agent's environment, and from
// there into every event its warden hooks record.
const TaskIDEnv = event.TaskIDEnv

// LaunchSpec is how to start one agent.
type LaunchSpec struct {
	Task   string
	Dir    string // the worktree; the agent starts there
	Prompt string
	Mode   string // ModeInteractive (default), ModeHeadless or ModeCommand
	// Claude is the Claude Code executable ("" = claude from PATH).
	Claude string
	// PermissionMode is passed as --permission-mode when set.
	PermissionMode string
	// Command is the argv template of ModeCommand.
	Command []string
	// Env is the agent's whole environment (KEY=VALUE); TaskIDEnv is
	// added. It goes into the launch script, not onto a command line,
	// where other users could read it in ps.
	Env []string
	// MemoryMax limits the agent's memory through a systemd scope
	// (MemoryMax syntax: 4G, 80%; MemoryUser: the user's instance);
	// "" = none.
	MemoryMax  string
	MemoryUser bool
	// MemoryCgroup is a cgroup warden made with the limit (cgroup.go):
	// the script moves itself into it before it execs the agent.
	MemoryCgroup string
	// ExitFile, for the modes that end on their own (headless, command,
	// the other CLIs), is where the script writes the agent's exit status.
	ExitFile string
	// CLI is the program and extra arguments of a CLI mode (clis.go);
	// PromptFile its stdin, PolicyFile Gemini's tool policy.
	CLI                    CLIConfig
	PromptFile, PolicyFile string
}

// AgentArgv is the command line of the agent itself. It fails when the
// program is not installed, so the task fails with that reason before a
// window is opened.
func AgentArgv(s LaunchSpec) ([]string, error) {
	var argv []string
	switch s.Mode {
	case ModeInteractive, ModeHeadless, "":
		bin := s.Claude
		if bin == "" {
			bin = "claude"
		}
		p, err := FindProgram(bin, launchEnv(s))
		if err != nil {
			return nil, fmt.Errorf("Claude Code: %v: %s", err, InstallClaudeHint)
		}
		argv = []string{p}
		if s.Mode == ModeHeadless {
			argv = append(argv, "-p")
		}
		if s.PermissionMode != "" {
			argv = append(argv, "--permission-mode", s.PermissionMode)
		}
		if s.PermissionMode == BypassPermissions {
			argv = append(argv, "--settings", bypassAccepted)
		}
		// "--" keeps a prompt that starts with '-' a prompt.
		argv = append(argv, "--", s.Prompt)
	case ModeCommand:
		if len(s.Command) == 0 {
			return nil, errors.New("agent mode command needs a command template (e.g. [\"codex\", \"exec\", \"{prompt}\"])")
		}
		r := strings.NewReplacer("{prompt}", s.Prompt, "{prompt_file}", filepath.Join(s.Dir, ".warden", "prompt.txt"),
			"{task}", s.Task, "{dir}", s.Dir)
		for _, a := range s.Command {
			argv = append(argv, r.Replace(a))
		}
		p, err := FindProgram(argv[0], launchEnv(s))
		if err != nil {
			return nil, fmt.Errorf("agent command: %v; install it or set agent.command to its path", err)
		}
		argv[0] = p
	case ModeCodex, ModeGemini, ModeCopilot:
		return cliArgvFull(s)
	default:
		return nil, fmt.Errorf("agent mode %q: use %s, %s, %s, %s, %s or %s", s.Mode, ModeInteractive, ModeHeadless, ModeCommand, ModeCodex, ModeGemini, ModeCopilot)
	}
	return argv, nil
}

// launchEnv is the environment the agent's program is looked up in: its
// own (nil: this process's).
func launchEnv(s LaunchSpec) []string {
	if s.Env != nil {
		return s.Env
	}
	return os.Environ()
}

// WriteLaunchScript writes the script a task's tmux window runs (0700):
// the environment, the worktree as working directory, the memory scope
// when asked for, then exec of the agent. It returns the argv for tmux.
func WriteLaunchScript(path string, s LaunchSpec) ([]string, error) {
	argv, err := AgentArgv(s)
	if err != nil {
		return nil, err
	}
	if s.MemoryMax != "" {
		argv = append(MemoryScopeArgv(s.Task, s.MemoryMax, s.MemoryUser), argv...)
	}
	cli := IsCLIMode(s.Mode)
	if cli {
		if err := writeCLIFiles(s); err != nil {
			return nil, err
		}
	}
	if s.Mode == ModeCommand {
		if err := os.MkdirAll(filepath.Join(s.Dir, ".warden"), 0o755); err != nil {
			return nil, err
		}
		if err := atomicfile.Write(filepath.Join(s.Dir, ".warden", "prompt.txt"), []byte(s.Prompt), 0o600); err != nil {
			return nil, err
		}
	}
	var b strings.Builder
	b.WriteString("#!/bin/sh\n# warden: the agent of task " + s.Task + " (written by warden serve)\n")
	env := s.Env
	if cli {
		env = append(append([]string(nil), env...), cliEnv(s.Mode)...)
	}
	for _, kv := range withoutEnv(env, TaskIDEnv, "TMUX", "TMUX_PANE") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || !validEnvName(k) {
			continue
		}
		fmt.Fprintf(&b, "export %s=%s\n", k, shQuote(v))
	}
	fmt.Fprintf(&b, "export %s=%s\n", TaskIDEnv, shQuote(s.Task))
	fmt.Fprintf(&b, "cd %s || exit 97\n", shQuote(s.Dir))
	if s.MemoryCgroup != "" {
		procs := filepath.Join(s.MemoryCgroup, "cgroup.procs")
		fmt.Fprintf(&b, "echo $$ > %s || { echo 'warden: cannot enter the memory cgroup %s' >&2; exit 96; }\n", shQuote(procs), s.MemoryCgroup)
	}
	if (s.Mode == ModeCommand || s.Mode == ModeHeadless || cli) && s.ExitFile != "" {
		// An agent that ends on its own is done by its exit status and
		// criteria (poll.go), and tmux does not always report a dead
		// pane's status (3.3a): the script keeps it in ExitFile.
		for _, a := range argv {
			b.WriteString(shQuote(a) + " ")
		}
		if cli {
			// The prompt on stdin, never on the command line.
			b.WriteString("< " + shQuote(s.PromptFile) + " ")
		}
		fmt.Fprintf(&b, "\nstatus=$?\necho \"$status\" > %s\nexit \"$status\"\n", shQuote(s.ExitFile))
	} else {
		b.WriteString("exec")
		for _, a := range argv {
			b.WriteString(" " + shQuote(a))
		}
		if cli {
			b.WriteString(" < " + shQuote(s.PromptFile))
		}
		b.WriteString("\n")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	if err := atomicfile.Write(path, []byte(b.String()), 0o700); err != nil {
		return nil, err
	}
	return []string{"/bin/sh", path}, nil
}

func validEnvName(k string) bool {
	if k == "" {
		return false
	}
	for i, c := range k {
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// shQuote quotes s for a POSIX shell.
func shQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:@,+") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
