//go:build !unix

package hook

import (
	"context"
	"errors"
)

func serve(context.Context, ServeOptions) error {
	return errors.New("the keeper answers hooks over a unix socket; on this system hooks run in their own process")
}
