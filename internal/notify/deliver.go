package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// permanent is a failure a retry cannot mend (a 4xx other than 429).
type permanent struct{ error }

// post sends body as JSON to url once, under timeout; it reads at most
// 64 KiB of the answer (into out when given).
func post(ctx context.Context, c *http.Client, url string, body any, timeout time.Duration, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return permanent{err}
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		return permanent{err}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "warden-notify")
	resp, err := c.Do(req)
	if err != nil {
		var ue interface{ Unwrap() error }
		if errors.As(err, &ue) && ue.Unwrap() != nil {
			err = ue.Unwrap() // *url.Error repeats the URL, which may hold a token
		}
		return err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 != 2 {
		err := fmt.Errorf("HTTP %d: %s", resp.StatusCode, strings.TrimSpace(string(data[:min(len(data), 300)])))
		if resp.StatusCode/100 == 4 && resp.StatusCode != http.StatusTooManyRequests {
			return permanent{err}
		}
		return err
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return permanent{fmt.Errorf("answer is not JSON: %w", err)}
		}
	}
	return nil
}

// retry runs try up to 1+retries times, waiting backoff, 2×backoff, 4×…
// (at most 30 s) between tries, until it succeeds, fails permanently or
// ctx ends.
func retry(ctx context.Context, retries int, backoff time.Duration, try func() error) error {
	var err error
	wait := backoff
	for i := 0; ; i++ {
		if err = try(); err == nil {
			return nil
		}
		var p permanent
		if errors.As(err, &p) || i >= retries {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait = min(2*wait, 30*time.Second)
	}
}

// redactToken keeps a bot token out of what is logged.
func redactToken(s, token string) string {
	if token == "" {
		return s
	}
	return strings.ReplaceAll(s, token, "<token>")
}
