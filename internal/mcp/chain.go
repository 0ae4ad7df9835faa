package mcp

import sdk "github.com/modelcontextprotocol/go-sdk/mcp"

// addChainTools adds the code-quality chain: commit → confirm → check,
// then push; and validate_intent.
func (s *server) addChainTools(srv *sdk.Server) {
	s.checkTool(srv)
	s.confirmTool(srv)
	s.commitTool(srv)
	s.pushTool(srv)
	s.intentTool(srv)
}
