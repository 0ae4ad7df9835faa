package pace

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Claude Code's OAuth credentials (claude-code-hooks.md §6). warden only
// reads them, never refreshes them: an expired or refused token means
// "open Claude Code to refresh".

// Token is the subscription's OAuth access token and where it came from.
type Token struct {
	Access    string
	ExpiresAt time.Time // zero when unknown
	From      string    // the file, or the environment variable
}

// ErrNoToken means no OAuth token is available (an API-key user, or
// credentials kept in the macOS Keychain, which warden does not read).
var ErrNoToken = errors.New("no Claude Code OAuth token")

// CredentialsFiles lists where Claude Code keeps .credentials.json, in the
// order warden looks: $CLAUDE_SECURESTORAGE_CONFIG_DIR, $CLAUDE_CONFIG_DIR,
// ~/.claude.
func CredentialsFiles(getenv func(string) string) []string {
	var out []string
	for _, k := range []string{"CLAUDE_SECURESTORAGE_CONFIG_DIR", "CLAUDE_CONFIG_DIR"} {
		if d := getenv(k); d != "" {
			// CLAUDE_CONFIG_DIR may list several directories.
			for _, part := range strings.Split(d, ",") {
				if part = strings.TrimSpace(part); part != "" {
					out = append(out, filepath.Join(part, ".credentials.json"))
				}
			}
		}
	}
	if len(out) == 0 {
		if home := getenv("HOME"); home != "" {
			out = append(out, filepath.Join(home, ".claude", ".credentials.json"))
		} else if home, err := os.UserHomeDir(); err == nil {
			out = append(out, filepath.Join(home, ".claude", ".credentials.json"))
		}
	}
	return out
}

// HasToken reports cheaply (a stat, no parsing) whether a token may be
// available; the hook uses it to decide whether a poll is worth starting.
func HasToken(getenv func(string) string) bool {
	if getenv("CLAUDE_CODE_OAUTH_TOKEN") != "" {
		return true
	}
	for _, f := range CredentialsFiles(getenv) {
		if _, err := os.Stat(f); err == nil {
			return true
		}
	}
	return false
}

// ReadToken finds the OAuth access token: $CLAUDE_CODE_OAUTH_TOKEN, else
// claudeAiOauth.accessToken in the first credentials file that has one.
func ReadToken(getenv func(string) string) (Token, error) {
	if t := strings.TrimSpace(getenv("CLAUDE_CODE_OAUTH_TOKEN")); t != "" {
		return Token{Access: t, From: "$CLAUDE_CODE_OAUTH_TOKEN"}, nil
	}
	for _, f := range CredentialsFiles(getenv) {
		b, err := os.ReadFile(f)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return Token{}, fmt.Errorf("read %s: %w", f, err)
		}
		var c struct {
			ClaudeAiOauth *struct {
				AccessToken string `json:"accessToken"`
				ExpiresAt   int64  `json:"expiresAt"` // epoch ms
			} `json:"claudeAiOauth"`
		}
		if err := json.Unmarshal(b, &c); err != nil {
			return Token{}, fmt.Errorf("%s is not valid JSON: %w", f, err)
		}
		if c.ClaudeAiOauth == nil || c.ClaudeAiOauth.AccessToken == "" {
			continue
		}
		t := Token{Access: c.ClaudeAiOauth.AccessToken, From: f}
		if c.ClaudeAiOauth.ExpiresAt > 0 {
			t.ExpiresAt = time.UnixMilli(c.ClaudeAiOauth.ExpiresAt).UTC()
		}
		return t, nil
	}
	return Token{}, ErrNoToken
}
