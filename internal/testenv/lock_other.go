//go:build !unix

package testenv

import "errors"

func lockFile(path string) (func(), error) {
	return nil, errors.New("installing npm tools for the tests needs a unix system (flock)")
}
