package dashboard

import "context"

type tokenKey struct{}

// WithToken carries a request's API token to the data sources (the
// dashboard does it for every request; tests of a source do it by hand).
func WithToken(ctx context.Context, tok string) context.Context {
	return context.WithValue(ctx, tokenKey{}, tok)
}

// RequestToken is the API token of the dashboard request ctx comes from:
// a source that calls the daemon's API in process (apitasks) acts as the
// logged-in user with it, so the API's own checks apply.
func RequestToken(ctx context.Context) string {
	tok, _ := ctx.Value(tokenKey{}).(string)
	return tok
}
