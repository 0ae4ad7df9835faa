// Package mcp is `warden mcp`: an MCP server on stdio (the official Go MCP
// SDK) that gives the agent warden's code-quality chain — check, confirm,
// commit, push, validate_intent — and warden's own figures (status, pace,
// usage, events, explain) as tools with JSON schemas and structured output.
//
// It runs in warden-helper (`warden-helper mcp`), which the front
// `warden` execs for `warden mcp`: the SDK, net/http and the Anthropic SDK never
// reach the hook path (internal/hook/deps_test.go).
package mcp

import (
	"context"
	"os"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/judge"
	"github.com/warden-dev/warden/internal/judge/llm"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/sibling"
	"github.com/warden-dev/warden/internal/version"
)

// Options is what the server works with. Zero fields are filled from the
// process: the working directory, the environment, the config files.
type Options struct {
	// Dir is the project: the working directory Claude Code starts the
	// server in.
	Dir string
	// Config is the effective config of Dir.
	Config *config.Config
	// Getenv reads the environment (API keys, ANTHROPIC_BASE_URL).
	Getenv func(string) string
	// LookPath finds executables (provider resolution: claude on PATH).
	LookPath func(string) (string, error)
	// Core is warden-core, which answers the figure tools (status, pace,
	// usage, events, explain) exactly as the CLI does.
	Core string
	// Judgements opens the store judge calls are recorded in (nil records
	// nothing); `warden-helper mcp` opens the local SQLite store.
	Judgements llm.Opener
}

func (o Options) withDefaults() Options {
	if o.Dir == "" {
		o.Dir, _ = os.Getwd()
	}
	if o.Config == nil {
		o.Config, _ = config.Load(paths.UserConfig(), o.Dir)
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Core == "" {
		o.Core = sibling.Core // run by name when none is found: the error names it
		if p, err := sibling.Find(sibling.Core); err == nil {
			o.Core = p
		}
	}
	return o
}

// server holds the options every tool handler reads; it keeps no state
// between calls.
type server struct {
	o Options
}

// New builds the MCP server with every tool.
func New(o Options) *sdk.Server {
	s := &server{o: o.withDefaults()}
	srv := sdk.NewServer(&sdk.Implementation{Name: "warden", Title: "warden", Version: version.String()},
		&sdk.ServerOptions{Instructions: instructions})
	s.addChainTools(srv)
	s.addFigureTools(srv)
	// Schema violations become protocol errors naming the argument, like
	// the handlers' own argument checks (see argError).
	srv.AddReceivingMiddleware(argumentErrors)
	return srv
}

// instructions tells the client how the tools chain.
const instructions = `warden's code-quality chain: check runs the project's linters and tests;
confirm asks a judge whether the staged (or base..working tree) diff is fit to commit;
commit runs confirm and commits the staged changes with a conventional message, refusing on DECLINED;
push pushes the current branch (never force, never a protected branch).
validate_intent judges whether this session's work followed the user's request.
status, pace, usage, events and explain are warden's own figures and policy decisions.`

// Serve runs the server on stdin/stdout until the client goes away.
func Serve(ctx context.Context, o Options) error {
	return New(o).Run(ctx, &sdk.StdioTransport{})
}

// provider resolves llm.provider the way the judges do.
func (s *server) provider() (string, string) {
	return judge.ResolveProvider(s.o.Config.LLM.Provider, s.o.Getenv, s.o.LookPath)
}

func ptr[T any](v T) *T { return &v }

// readOnly and mutating are the tools' annotations.
var (
	readOnly = &sdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)}
	mutating = &sdk.ToolAnnotations{DestructiveHint: ptr(false), OpenWorldHint: ptr(true)}
)

// ms turns a config millisecond figure into a duration.
func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

func trimLines(s string) string { return strings.TrimSpace(strings.ReplaceAll(s, "\r\n", "\n")) }
