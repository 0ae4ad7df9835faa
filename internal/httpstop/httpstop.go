// Package httpstop tells long-lived HTTP handlers (server-sent event
// streams) that the server is shutting down. http.Server.Shutdown waits
// for every active request but cancels none: a stream open in a browser
// would hold the daemon's stop until the drain deadline and make it fail.
// The server puts a channel in every request's context (BaseContext) and
// closes it when Shutdown starts (RegisterOnShutdown); a stream selects
// on Done and ends, and the browser's EventSource reconnects to the next
// daemon on its own. Ordinary requests are not cut short.
package httpstop

import (
	"context"
	"sync"
)

type key struct{}

// With returns ctx carrying a stop channel, and stop, which closes it
// (safe to call more than once).
func With(ctx context.Context) (context.Context, func()) {
	ch := make(chan struct{})
	var once sync.Once
	return context.WithValue(ctx, key{}, ch), func() { once.Do(func() { close(ch) }) }
}

// Done is closed once the server serving ctx's request shuts down; nil
// (never ready) when ctx carries none.
func Done(ctx context.Context) <-chan struct{} {
	ch, _ := ctx.Value(key{}).(chan struct{})
	return ch
}
