package ship

import (
	"context"
	"time"
)

// finalDrain bounds the last pass a stopping shipper makes, so a keeper
// leaving after its idle time ships the last second's events first.
const finalDrain = 5 * time.Second

// Start runs a Shipper in the background of a resident process (the
// keeper, the daemon) until ctx ends; wait blocks until it has stopped,
// after one last pass, so the caller closes the local store only then.
func Start(ctx context.Context, o Options) (sh *Shipper, wait func(), err error) {
	sh, err = New(o)
	if err != nil {
		return nil, nil, err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = sh.Run(ctx)
		// While the shared store fails, a last try would only delay the
		// stop: the spool keeps the rows for the next shipper.
		if sh.Status().Error == "" {
			last, cancel := context.WithTimeout(context.WithoutCancel(ctx), finalDrain)
			_, _ = sh.Drain(last)
			cancel()
		}
		sh.Close()
	}()
	return sh, func() { <-done }, nil
}
