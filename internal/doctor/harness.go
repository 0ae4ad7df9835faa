package doctor

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/warden-dev/warden/internal/harness"
	"github.com/warden-dev/warden/internal/install"
	"github.com/warden-dev/warden/internal/pace"
)

// harnesses adds one line per other CLI warden is set up for (or whose
// configuration directory exists): above all, whether that CLI would
// skip warden's hooks.
func (d *doctor) harnesses() {
	d.codexCheck()
	d.geminiCheck()
	d.copilotCheck()
}

// registeredNatives lists the CLI event names under which s holds a
// warden hook handler.
func registeredNatives(s *install.Settings) map[string]bool {
	got := map[string]bool{}
	_ = s.Visit(func(loc install.Location, h *install.Object) {
		if loc.Handler >= 0 && install.IsWardenHook(h) {
			got[loc.Event] = true
		}
	}, nil)
	return got
}

// missingHooks names the events of h not in got.
func missingHooks(h harness.Name, got map[string]bool) []string {
	var out []string
	for _, hk := range harness.Hooks(h) {
		if !got[hk.Native] {
			out = append(out, hk.Native)
		}
	}
	return out
}

func (d *doctor) codexCheck() {
	const name = "codex"
	fix := "warden install --harness codex"
	home := install.CodexHome()
	hooksPath, cfgPath := filepath.Join(home, "hooks.json"), filepath.Join(home, "config.toml")
	s, err := install.ReadSettings(hooksPath)
	if err != nil {
		d.problem(name, err.Error(), "fix the file, then "+fix)
		return
	}
	got := registeredNatives(s)
	if len(got) == 0 {
		if _, err := os.Stat(home); err == nil {
			d.info(name, "Codex CLI is here ("+home+") but warden is not set up for it")
		}
		return
	}
	if miss := missingHooks(harness.Codex, got); len(miss) > 0 {
		d.problem(name, hooksPath+" lacks warden's "+strings.Join(miss, ", ")+" hooks", fix)
		return
	}
	raw, _ := os.ReadFile(cfgPath)
	var cfg struct {
		Features map[string]any `toml:"features"`
		Hooks    struct {
			State map[string]struct {
				TrustedHash string `toml:"trusted_hash"`
				Enabled     *bool  `toml:"enabled"`
			} `toml:"state"`
		} `toml:"hooks"`
	}
	if _, err := toml.Decode(string(raw), &cfg); err != nil {
		d.problem(name, cfgPath+" is not valid TOML: "+err.Error(), "fix the file by hand")
		return
	}
	for _, k := range []string{"hooks", "codex_hooks"} {
		if v, ok := cfg.Features[k].(bool); ok && !v {
			d.problem(name, fmt.Sprintf("%s turns hooks off ([features] %s = false): Codex runs none of warden's hooks", cfgPath, k), "remove that line")
			return
		}
	}
	trusts, err := install.CodexTrusts(s, hooksPath)
	if err != nil {
		d.problem(name, err.Error(), fix)
		return
	}
	var bad []string
	for _, t := range trusts {
		st, ok := cfg.Hooks.State[t.Key]
		switch {
		case !ok || st.TrustedHash == "":
			bad = append(bad, t.Key+" is not trusted")
		case st.TrustedHash != t.Hash:
			bad = append(bad, t.Key+" changed since it was trusted")
		case st.Enabled != nil && !*st.Enabled:
			bad = append(bad, t.Key+" is disabled")
		}
	}
	if len(bad) > 0 {
		d.problem(name, "Codex skips these warden hooks without a word: "+strings.Join(bad, "; "), fix+" (it writes the trust entries again)")
		return
	}
	d.ok(name, fmt.Sprintf("%d hooks registered in %s and trusted in %s", len(trusts), hooksPath, cfgPath))
	d.info(name, "pacing: Codex sessions are paced by Codex's own rate limits, read from its rollouts (warden pace --harness codex)")
}

func (d *doctor) geminiCheck() {
	const name = "gemini"
	path := install.GeminiSettings()
	s, err := install.ReadSettings(path)
	if err != nil {
		d.problem(name, err.Error(), "fix the file (warden does not read comments in it), then warden install --harness gemini")
		return
	}
	got := registeredNatives(s)
	if len(got) == 0 {
		if s.Exists {
			d.info(name, "Gemini CLI is here ("+path+") but warden is not set up for it")
		}
		return
	}
	if miss := missingHooks(harness.Gemini, got); len(miss) > 0 {
		d.problem(name, path+" lacks warden's "+strings.Join(miss, ", ")+" hooks", "warden install --harness gemini")
		return
	}
	if raw, ok := s.Root.Get("hooksConfig"); ok {
		var hc struct {
			Enabled *bool `json:"enabled"`
		}
		if json.Unmarshal(raw, &hc) == nil && hc.Enabled != nil && !*hc.Enabled {
			d.problem(name, path+" turns hooks off (hooksConfig.enabled false): Gemini CLI runs none of warden's hooks", "set hooksConfig.enabled to true")
			return
		}
	}
	d.ok(name, fmt.Sprintf("%d hooks registered in %s", len(got), path))
	d.info(name, "pacing: "+pace.NoQuotaNote(harness.Gemini.Title()))
}

func (d *doctor) copilotCheck() {
	const name = "copilot"
	path := install.CopilotHookFile()
	raw, err := os.ReadFile(path)
	if err != nil {
		if _, err := os.Stat(filepath.Dir(filepath.Dir(path))); err == nil {
			d.info(name, "Copilot CLI is here ("+filepath.Dir(filepath.Dir(path))+") but warden is not set up for it")
		}
		return
	}
	var f struct {
		Hooks map[string][]map[string]any `json:"hooks"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		d.problem(name, path+" is not valid JSON: "+err.Error(), "warden install --harness copilot (it writes the file anew)")
		return
	}
	got := map[string]bool{}
	for ev, hs := range f.Hooks {
		for _, h := range hs {
			if cmd, _ := h["bash"].(string); strings.Contains(cmd, " hook --harness copilot") {
				got[ev] = true
			}
		}
	}
	if miss := missingHooks(harness.Copilot, got); len(miss) > 0 {
		d.problem(name, path+" lacks warden's "+strings.Join(miss, ", ")+" hooks", "warden install --harness copilot")
		return
	}
	settings := filepath.Join(filepath.Dir(filepath.Dir(path)), "settings.json")
	if b, err := os.ReadFile(settings); err == nil {
		var st struct {
			DisableAllHooks bool `json:"disableAllHooks"`
		}
		if json.Unmarshal(b, &st) == nil && st.DisableAllHooks {
			d.problem(name, settings+" turns hooks off (disableAllHooks): Copilot CLI runs none of warden's hooks", "remove disableAllHooks")
			return
		}
	}
	d.ok(name, fmt.Sprintf("%d hooks registered in %s (a repository's .claude/settings.json warden hooks stay silent under Copilot)", len(got), path))
	d.info(name, "pacing: "+pace.NoQuotaNote(harness.Copilot.Title()))
}
