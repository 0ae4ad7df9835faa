package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// argError is the MCP error (JSON-RPC invalid params) for a bad tool
// argument: it names the argument and says what would be accepted.
func argError(name, format string, a ...any) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
		Message: fmt.Sprintf("invalid argument %q: %s", name, fmt.Sprintf(format, a...))}
}

// argumentErrors turns the SDK's schema validation failure of a tool's
// arguments — reported as a tool result with isError — into the same
// protocol error argError gives, so every bad argument fails one way, with
// the argument's name (the validator's message names the property).
func argumentErrors(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil || method != "tools/call" {
			return res, err
		}
		r, ok := res.(*sdk.CallToolResult)
		if !ok || !r.IsError || len(r.Content) == 0 {
			return res, err
		}
		t, ok := r.Content[0].(*sdk.TextContent)
		if !ok || !strings.HasPrefix(t.Text, `validating "arguments"`) {
			return res, err
		}
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid arguments: " + t.Text}
	}
}
