package mcp

import (
	"errors"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

func asWireError(err error, we **jsonrpc.Error) bool { return errors.As(err, we) }
