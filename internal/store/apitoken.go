package store

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"time"
)

// APIToken is a bearer token of the daemon's API (warden token create).
// Only Hash (hex SHA-256 of the token) is stored; the token is shown once.
type APIToken struct {
	ID       string     `json:"id"`
	Name     string     `json:"name"`
	Hash     string     `json:"-"`
	Created  time.Time  `json:"created"`
	LastUsed *time.Time `json:"last_used,omitempty"`
	Revoked  *time.Time `json:"revoked,omitempty"`
	// Scope is what the token may do (tokenscope.go); empty reads as
	// admin, what a token stored before scopes could do.
	Scope string `json:"scope"`
	// Expires is when the token stops working; nil: never.
	Expires *time.Time `json:"expires,omitempty"`
}

// APITokenPrefix starts every API token, so one pasted in the wrong place
// is recognisable (and secret scanners can find it).
const APITokenPrefix = "wdn_"

// NewAPIToken makes a token (32 random bytes) and the hash to store.
func NewAPIToken() (token, hash string) {
	var b [32]byte
	_, _ = rand.Read(b[:])
	token = APITokenPrefix + base64.RawURLEncoding.EncodeToString(b[:])
	return token, HashAPIToken(token)
}

// HashAPIToken is what the store keeps of a token: hex SHA-256.
func HashAPIToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
