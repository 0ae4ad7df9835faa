package install

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/warden-dev/warden/internal/harness"
)

// Codex runs a hook from ~/.codex/hooks.json only when config.toml trusts
// it by hash; an untrusted hook is skipped without a word. So install
// writes both: warden's handlers into hooks.json (the same shape as
// Claude Code's settings) and, in config.toml, one trust entry per
// handler between two marker lines, which uninstall removes byte for
// byte. The hash covers the command, so a new install path or WARDEN_HOME
// needs a new trust entry: install rewrites the block every time.

const (
	codexBegin        = "# BEGIN warden hook trust (warden uninstall --harness codex removes this block)"
	codexBeginCreated = "# BEGIN warden hook trust (warden uninstall --harness codex removes this block and the file warden created)"
	codexEnd          = "# END warden hook trust"
)

// codexBlock matches warden's trust block, with the newline before it.
var codexBlock = regexp.MustCompile(`(?s)\n# BEGIN warden hook trust \([^\n]*\)\n.*?# END warden hook trust\n?`)

// CodexTrust is one hook's trust entry: its key in Codex's [hooks.state] and the hash Codex trusts.
type CodexTrust struct{ Key, Hash string }

// planCodex is the change to Codex's hooks.json and config.toml.
func planCodex(bin string, install bool) ([]fileChange, error) {
	home := CodexHome()
	hooksPath, cfgPath := filepath.Join(home, "hooks.json"), filepath.Join(home, "config.toml")
	s, err := ReadSettings(hooksPath)
	if err != nil {
		return nil, err
	}
	cfg, err := rawFile(cfgPath)
	if err != nil {
		return nil, err
	}
	var out []fileChange
	if install {
		changed, err := mergeHarness(s, harness.Codex, bin, 1)
		if err != nil {
			return nil, err
		}
		if c := jsonChange(s, changed, "register warden's hooks"); c != nil {
			out = append(out, *c)
		}
		trust, err := CodexTrusts(s, hooksPath)
		if err != nil {
			return nil, err
		}
		data, err := withCodexTrust(cfg, trust)
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(data, cfg.Raw) || !cfg.Exists {
			out = append(out, fileChange{s: cfg, data: data, what: fmt.Sprintf("trust warden's %d hooks by hash (Codex skips an untrusted hook silently)", len(trust))})
		}
		return out, nil
	}
	changed, err := removeHandlers(s, func(_ Location, h *Object) bool { return IsWardenHook(h) })
	if err != nil {
		return nil, err
	}
	if c := jsonChange(s, changed, "remove warden's hooks"); c != nil {
		out = append(out, *c)
	}
	if cfg.Exists {
		data, created := withoutCodexTrust(cfg.Raw)
		switch {
		case created && len(data) == 0:
			out = append(out, fileChange{s: cfg, remove: true, what: "remove warden's hook trust (and the file warden created)"})
		case !bytes.Equal(data, cfg.Raw):
			out = append(out, fileChange{s: cfg, data: data, what: "remove warden's hook trust"})
		}
	}
	return out, nil
}

// CodexTrusts lists the trust entries for every warden handler in
// hooks.json as it will be written.
func CodexTrusts(s *Settings, path string) ([]CodexTrust, error) {
	written, err := parseObject(s.Encode())
	if err != nil {
		return nil, err
	}
	tmp := &Settings{Path: s.Path, Root: written}
	var out []CodexTrust
	err = tmp.Visit(func(loc Location, h *Object) {
		if loc.Handler < 0 || !IsWardenHook(h) {
			return
		}
		cmd, _ := h.Get("command")
		command, _ := stringValue(cmd)
		var timeout int
		if raw, ok := h.Get("timeout"); ok {
			_ = json.Unmarshal(raw, &timeout)
		}
		ev := codexEventKey(loc.Event)
		out = append(out, CodexTrust{
			Key:  fmt.Sprintf("%s:%s:%d:%d", path, ev, loc.Group, loc.Handler),
			Hash: CodexHookHash(ev, command, timeout),
		})
	}, nil)
	return out, err
}

// CodexHookHash is the hash Codex trusts a command hook by: SHA-256 of
// the canonical JSON (keys sorted, no spaces, no HTML escaping) of the
// hook's identity, {event_name, hooks: [{async, command, timeout, type}]}
// (measured against Codex 0.171.0's app-server hooks/list). A group
// without a matcher, which is how warden registers, has no matcher key.
func CodexHookHash(eventKey, command string, timeout int) string {
	if timeout < 1 {
		timeout = 600 // Codex's default
	}
	identity := map[string]any{
		"event_name": eventKey,
		"hooks": []any{map[string]any{
			"async": false, "command": command, "timeout": timeout, "type": "command",
		}},
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(identity) // maps encode with sorted keys
	sum := sha256.Sum256(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// codexEventKey is Codex's snake_case label for an event in trust keys
// and hashes: PreToolUse → pre_tool_use.
func codexEventKey(ev string) string {
	var b strings.Builder
	for i, r := range ev {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// withCodexTrust is config.toml with warden's trust block replaced by one
// for trust (none: no block). The result must still parse, and no entry
// of the user's may already claim one of warden's keys.
func withCodexTrust(cfg *Settings, trust []CodexTrust) ([]byte, error) {
	base, created := withoutCodexTrust(cfg.Raw)
	if !cfg.Exists {
		created = true
	}
	if err := checkCodexConfig(cfg.Path, base, trust); err != nil {
		return nil, err
	}
	if len(trust) == 0 {
		return base, nil
	}
	var b bytes.Buffer
	b.Write(base)
	b.WriteByte('\n')
	if created && len(base) == 0 {
		b.WriteString(codexBeginCreated)
	} else {
		b.WriteString(codexBegin)
	}
	b.WriteByte('\n')
	for _, t := range trust {
		fmt.Fprintf(&b, "[hooks.state.%s]\ntrusted_hash = %s\n", tomlString(t.Key), tomlString(t.Hash))
	}
	b.WriteString(codexEnd + "\n")
	var probe map[string]any
	if _, err := toml.Decode(b.String(), &probe); err != nil {
		return nil, fmt.Errorf("%s: adding warden's [hooks.state] entries would make it invalid TOML (%v); "+
			"a [hooks] table written inline (hooks = {…}) cannot take them: write it as [hooks] tables, then run the command again", cfg.Path, err)
	}
	return b.Bytes(), nil
}

// checkCodexConfig refuses a config.toml that does not parse, or whose own
// entries already claim a key warden trusts.
func checkCodexConfig(path string, base []byte, trust []CodexTrust) error {
	var doc struct {
		Hooks struct {
			State map[string]any `toml:"state"`
		} `toml:"hooks"`
	}
	if _, err := toml.Decode(string(base), &doc); err != nil {
		return fmt.Errorf("%s is not valid TOML (%v); fix it by hand and run the command again, warden does not rewrite a file it cannot read", path, err)
	}
	for _, t := range trust {
		if _, ok := doc.Hooks.State[t.Key]; ok {
			return fmt.Errorf("%s already has [hooks.state.%q] (an earlier trust of the hook at that place); delete that table and run the command again, warden then writes the trust for its own hook there", path, t.Key)
		}
	}
	return nil
}

// withoutCodexTrust removes warden's block (and the newline before it);
// created reports that warden made the file.
func withoutCodexTrust(raw []byte) (out []byte, created bool) {
	loc := codexBlock.FindIndex(raw)
	if loc == nil {
		if bytes.HasPrefix(raw, []byte("# BEGIN warden hook trust")) { // no newline before: a file warden made
			raw = append([]byte("\n"), raw...)
			loc = codexBlock.FindIndex(raw)
			if loc == nil {
				return raw[1:], false
			}
		} else {
			return raw, false
		}
	}
	created = bytes.Contains(raw[loc[0]:loc[1]], []byte(codexBeginCreated))
	out = append(append([]byte{}, raw[:loc[0]]...), raw[loc[1]:]...)
	return out, created
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	b, _ := json.Marshal(s) // JSON's escapes are valid in TOML basic strings
	return string(b)
}
