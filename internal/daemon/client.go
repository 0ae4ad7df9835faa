package daemon

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
)

// Client talks to a running daemon's API as the local CLI: the address
// from the daemon's state file, the CLI token from its token file
// (WARDEN_API and WARDEN_TOKEN override both).
type Client struct {
	Base  string
	Token string
	HTTP  *http.Client
}

// NewClient finds the running daemon; ErrNotRunning when none answers.
func NewClient(statePath, tokenPath string) (*Client, error) {
	c := &Client{HTTP: &http.Client{Timeout: 30 * time.Second}}
	c.Base = strings.TrimRight(os.Getenv("WARDEN_API"), "/")
	if c.Base == "" {
		st, err := ReadState(statePath)
		if err != nil {
			return nil, err
		}
		c.Base = st.URL
		if strings.HasPrefix(c.Base, "https://") {
			// The daemon's own certificate may be self-signed; the CLI
			// talks to it on this machine only.
			c.HTTP.Transport = &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}} //nolint:gosec
		}
	}
	c.Token = os.Getenv("WARDEN_TOKEN")
	if c.Token == "" {
		b, err := os.ReadFile(tokenPath)
		if err != nil {
			return nil, fmt.Errorf("no API token: %s is missing (the daemon writes it at start; or set WARDEN_TOKEN to a token from `warden token create`)", tokenPath)
		}
		c.Token = strings.TrimSpace(string(b))
	}
	return c, nil
}

// APIError is an error answer of the API.
type APIError struct {
	Status  int
	Code    string
	Message string
}

func (e *APIError) Error() string { return fmt.Sprintf("%s (HTTP %d %s)", e.Message, e.Status, e.Code) }

// Do sends a request with body (nil for none) and decodes the answer into
// out (nil to drop it).
func (c *Client) Do(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.Base+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	resp, err := c.HTTP.Do(req)
	if err != nil {
		var op *net.OpError
		if errors.As(err, &op) && op.Op == "dial" {
			return ErrNotRunning
		}
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode >= 400 {
		var eb struct {
			Error struct{ Code, Message string } `json:"error"`
		}
		if json.Unmarshal(data, &eb) == nil && eb.Error.Message != "" {
			return &APIError{Status: resp.StatusCode, Code: eb.Error.Code, Message: eb.Error.Message}
		}
		return &APIError{Status: resp.StatusCode, Code: "http", Message: strings.TrimSpace(string(data))}
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("%s %s: answer is not the expected JSON: %w", method, path, err)
		}
	}
	return nil
}
