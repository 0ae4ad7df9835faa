package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadKeySeesAReplacedKey: keys are remembered between hooks of a
// resident server, but a key file replaced (a new inode, as LoadKey and
// an editor make it), rewritten in place, or made readable to others is
// noticed on the next load.
func TestLoadKeySeesAReplacedKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys", "state.key")
	first, err := LoadKey(path)
	if err != nil || len(first) != keySize {
		t.Fatalf("create: %x %v", first, err)
	}
	again, err := LoadKey(path)
	if err != nil || string(again) != string(first) {
		t.Fatalf("reload: %x %v", again, err)
	}
	other := strings.Repeat("ab", keySize)
	tmp := path + ".new"
	os.WriteFile(tmp, []byte(other), 0o600)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	if got, err := LoadKey(path); err != nil || string(got) == string(first) || len(got) != keySize {
		t.Fatalf("after the file was replaced: %x %v", got, err)
	}
	os.WriteFile(path, []byte(strings.Repeat("cd", keySize)+"\n"), 0o600) // in place, another size
	if got, err := LoadKey(path); err == nil || got != nil {
		t.Fatalf("a damaged key in place was served from memory: %x %v", got, err)
	}
	os.WriteFile(path, []byte(strings.Repeat("cd", keySize)), 0o600)
	os.Chmod(path, 0o644)
	if _, err := LoadKey(path); err == nil || !strings.Contains(err.Error(), "must be private") {
		t.Fatalf("a key readable by others: %v", err)
	}
}
