package session

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/warden-dev/warden/internal/fileid"
)

// Session state is signed so an agent that edits the store directly (to
// reset a tripped breaker, say) is detected: a record whose signature does
// not verify is reset to defaults and reported as tampering. The key lives
// under WARDEN_HOME, never in a project, and must be private (0600).

const keySize = 32

// LoadKey reads the signing key at path, creating it on first use. A key
// file readable or writable by anyone but its owner is refused: such a key
// signs nothing anyone can trust.
func LoadKey(path string) ([]byte, error) {
	key, err := readKey(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return key, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create key directory: %w", err)
	}
	fresh := make([]byte, keySize)
	if _, err := rand.Read(fresh); err != nil {
		return nil, err
	}
	// Write a temporary file, then link it into place: two hooks creating
	// the key at once end up using the same one, never half a file.
	tmp, err := os.CreateTemp(filepath.Dir(path), ".state.key-*")
	if err != nil {
		return nil, fmt.Errorf("create key: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write([]byte(hex.EncodeToString(fresh))); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("write key: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return nil, err
	}
	if err := os.Chmod(tmp.Name(), 0o600); err != nil {
		return nil, err
	}
	if err := os.Link(tmp.Name(), path); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("install key %s: %w", path, err)
	}
	return readKey(path)
}

func readKey(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("state key %s has mode %#o; it must be private: chmod 600 %s", path, fi.Mode().Perm(), path)
	}
	if key := keys.get(path, fi); key != nil {
		return key, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	key, err := hex.DecodeString(string(b))
	if err != nil || len(key) != keySize {
		return nil, fmt.Errorf("state key %s is damaged; delete it (every session's state will be reset once)", path)
	}
	keys.put(path, fi, key)
	return key, nil
}

// keys remembers the keys read, by path, while the file's size,
// modification time and inode stay the same: a resident server reads a
// key for every hook, and the stat it does anyway tells whether the
// file changed (replaced keys get a new inode: LoadKey links a new file
// into place).
var keys = &keyCache{m: map[string]cachedKey{}}

type keyCache struct {
	mu sync.Mutex
	m  map[string]cachedKey
}

type cachedKey struct {
	size, mtime int64
	id          string
	key         []byte
}

func fileKey(fi os.FileInfo) (int64, int64, string) {
	return fi.Size(), fi.ModTime().UnixNano(), fileid.Of(fi)
}

func (c *keyCache) get(path string, fi os.FileInfo) []byte {
	size, mtime, id := fileKey(fi)
	c.mu.Lock()
	defer c.mu.Unlock()
	if k, ok := c.m[path]; ok && k.size == size && k.mtime == mtime && k.id == id {
		return k.key
	}
	return nil
}

func (c *keyCache) put(path string, fi os.FileInfo, key []byte) {
	size, mtime, id := fileKey(fi)
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= 64 {
		clear(c.m)
	}
	c.m[path] = cachedKey{size: size, mtime: mtime, id: id, key: key}
}

// Sign returns the hex HMAC-SHA256 of a session's saved state.
func Sign(key []byte, sessionID string, state []byte) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(sessionID))
	m.Write([]byte{0})
	m.Write(state)
	return hex.EncodeToString(m.Sum(nil))
}

// Verify reports whether sig is the signature of state.
func Verify(key []byte, sessionID string, state []byte, sig string) bool {
	want := Sign(key, sessionID, state)
	return hmac.Equal([]byte(want), []byte(sig))
}
