// Command bare is the baseline of bench/mcp-startup: an MCP server on
// stdio with the same SDK and no tools, so the ratio shows what warden
// adds (its front's exec, its config, its ten tools' schemas).
package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	s := mcp.NewServer(&mcp.Implementation{Name: "bare", Version: "1"}, nil)
	_ = s.Run(context.Background(), &mcp.StdioTransport{})
}
