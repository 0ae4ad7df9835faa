package e2e

import "github.com/warden-dev/warden/internal/fakeapi"

// The scripted fake Anthropic API lives in internal/fakeapi (warden serve
// --demo runs against it too); these names keep the tests short.
type (
	Step        = fakeapi.Step
	ToolUse     = fakeapi.ToolUse
	APIError    = fakeapi.APIError
	SideRule    = fakeapi.SideRule
	Script      = fakeapi.Script
	RateLimits  = fakeapi.RateLimits
	LimitWindow = fakeapi.LimitWindow
	APIRequest  = fakeapi.APIRequest
	Message     = fakeapi.Message
	Block       = fakeapi.Block
	fakeAPI     = fakeapi.Server
)

func newFakeAPI(script Script, vars map[string]string) *fakeAPI { return fakeapi.New(script, vars) }

func clip(s string, n int) string { return fakeapi.Clip(s, n) }
