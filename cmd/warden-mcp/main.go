// Command warden-mcp is `warden mcp`: warden's MCP server on stdio
// (internal/mcp). It is a binary of its own because the MCP SDK, net/http
// and the Anthropic SDK must never be linked into what Claude Code starts
// for every hook; the front `warden` execs it for `warden mcp`.
//
//	warden-mcp            serve MCP on stdin/stdout until the client closes it
//	warden-mcp version
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/warden-dev/warden/internal/judge/llm"
	"github.com/warden-dev/warden/internal/mcp"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/version"
)

func main() {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "version", "--version":
			fmt.Println("warden-mcp", version.String())
			return
		case "-h", "--help", "help":
			fmt.Println("usage: warden mcp   (an MCP server on stdio; register it with `warden init --mcp`)")
			return
		default:
			fmt.Fprintf(os.Stderr, "warden mcp: unexpected argument %q (it takes none; it serves MCP on stdin/stdout)\n", os.Args[1])
			os.Exit(2)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	judgements := func(ctx context.Context) (llm.JudgementStore, error) { return sqlite.Open(ctx, paths.DB()) }
	if err := mcp.Serve(ctx, mcp.Options{Judgements: judgements}); err != nil && ctx.Err() == nil {
		fmt.Fprintln(os.Stderr, "warden mcp:", err)
		os.Exit(1)
	}
}
