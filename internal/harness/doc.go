// Package harness is what differs between the agent CLIs warden governs:
// Claude Code, OpenAI Codex CLI, Google Gemini CLI and GitHub Copilot CLI.
//
// Every CLI runs `warden hook --harness NAME`. In reads its payload
// leniently (field names in snake_case or camelCase, its own event and
// tool names, Copilot's toolArgs as an object or a JSON string) and turns
// it into the Claude Code payload the handlers and the policy know; Out
// turns the one decision warden reached into exactly the answer that CLI
// accepts, and nothing more: an unknown key makes Codex discard the whole
// answer and run the tool.
//
// Claude Code's payload and answers pass through untouched, so its hook
// pays nothing for the others. The package imports only the standard
// library and the hook protocol packages: it is on the hook's hot path.
package harness
