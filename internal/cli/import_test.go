package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/paths"
)

// importHome lays out a HOME with the pace-maker fixture installed as its
// installer leaves it: ~/.claude-pace-maker/{config,state}.json, the hook
// scripts in ~/.claude/hooks, and their registration in settings.json.
func importHome(t *testing.T) (home, settings string, original []byte) {
	t.Helper()
	home = t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("WARDEN_HOME", filepath.Join(home, ".warden"))
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	fix, _ := filepath.Abs(filepath.Join("..", "importer", "testdata", "pace-maker"))
	t.Chdir(t.TempDir()) // no project settings
	pm := filepath.Join(home, ".claude-pace-maker")
	for _, f := range []string{"config.json", "state.json"} {
		copyFile(t, filepath.Join(fix, f), filepath.Join(pm, f), "")
	}
	for _, s := range []string{"pre-tool-use", "post-tool-use", "user-prompt-submit", "stop", "session-start", "subagent-start", "subagent-stop"} {
		p := filepath.Join(home, ".claude", "hooks", s+".sh")
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("#!/bin/bash\n# Claude Pace Maker hook\nexec python3 -m pacemaker.hook "+s+"\n"), 0o755)
	}
	settings = filepath.Join(home, ".claude", "settings.json")
	copyFile(t, filepath.Join(fix, "settings.json"), settings, home)
	original, _ = os.ReadFile(settings)
	return home, settings, original
}

func copyFile(t *testing.T, from, to, home string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if home != "" {
		b = []byte(strings.ReplaceAll(string(b), "@HOME@", home))
	}
	os.MkdirAll(filepath.Dir(to), 0o755)
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestImportPaceMakerMapsAsDocumented(t *testing.T) {
	_, settings, original := importHome(t)
	// A value the user already set is kept, and the file's comment stays.
	os.MkdirAll(filepath.Dir(paths.UserConfig()), 0o755)
	os.WriteFile(paths.UserConfig(), []byte("# mine\n[pacing]\nmax_delay = 200\n"), 0o644)

	out, stderr, code := runCLI(t, "import", "pace-maker")
	if code != 0 {
		t.Fatalf("import: exit %d\n%s%s", code, out, stderr)
	}
	cfg, problems := config.Load(paths.UserConfig(), "")
	if len(problems) > 0 {
		t.Fatalf("the imported config has problems: %v", problems)
	}
	got := map[string]any{
		"pacing.enabled": cfg.Pacing.Enabled, "pacing.base_delay": cfg.Pacing.BaseDelay, "pacing.max_delay": cfg.Pacing.MaxDelay,
		"pacing.threshold_percent": cfg.Pacing.ThresholdPercent, "pacing.poll_interval": cfg.Pacing.PollInterval,
		"pacing.safety_buffer_pct": cfg.Pacing.SafetyBufferPct, "pacing.preload_hours": cfg.Pacing.PreloadHours,
		"pacing.weekly_limit": cfg.Pacing.WeeklyLimit, "retention_days": cfg.RetentionDays, "tempo.enabled": cfg.Tempo.Enabled,
		"validation.intent": cfg.Validation.Intent, "reminders.subagent_every": cfg.Reminders.SubagentEvery,
		"reminders.subagent_text": cfg.Reminders.SubagentText,
	}
	want := map[string]any{
		"pacing.enabled": true, "pacing.base_delay": 10, "pacing.max_delay": 200, // kept: the user's own
		"pacing.threshold_percent": 0.0, "pacing.poll_interval": 600, "pacing.safety_buffer_pct": 90.0,
		"pacing.preload_hours": 8.0, "pacing.weekly_limit": false, "retention_days": 30, "tempo.enabled": true,
		"validation.intent": true, "reminders.subagent_every": 7,
		"reminders.subagent_text": "💡 Consider using the Task tool to delegate work to specialized subagents (per your guidelines)",
	}
	if !reflect.DeepEqual(got, want) {
		for k := range want {
			if !reflect.DeepEqual(got[k], want[k]) {
				t.Errorf("%s = %v, want %v", k, got[k], want[k])
			}
		}
	}
	text, _ := os.ReadFile(paths.UserConfig())
	if !strings.HasPrefix(string(text), "retention_days = 30\n# mine\n[pacing]\n") {
		t.Errorf("config text:\n%s", text)
	}
	for _, w := range []string{"kept: your config already sets it", "auto (tempo after inactivity) has no equivalent",
		"no equivalent in warden", "hook_model", "tdd_enabled", "log_level", "state.json", "tool_execution_count",
		"still registered; run with --remove-hooks", "backed up the old config"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	if now, _ := os.ReadFile(settings); string(now) != string(original) {
		t.Error("settings changed without --remove-hooks")
	}
	// Twice: nothing more to add, nothing broken.
	out, _, code = runCLI(t, "import", "pace-maker")
	if code != 0 || !strings.Contains(out, "nothing to add to the config") {
		t.Errorf("second import: exit %d\n%s", code, out)
	}
}

func TestImportPaceMakerRemovesExactlyItsHooks(t *testing.T) {
	fixture, _ := filepath.Abs(filepath.Join("..", "importer", "testdata", "pace-maker"))
	home, settings, original := importHome(t)
	out, stderr, code := runCLI(t, "import", "pace-maker", "--remove-hooks", "--dry-run")
	if code != 0 || !strings.Contains(out, "7 pace-maker hook command(s)") {
		t.Fatalf("dry run: exit %d\n%s%s", code, out, stderr)
	}
	if now, _ := os.ReadFile(settings); string(now) != string(original) {
		t.Fatal("a dry run changed the settings")
	}
	if _, err := os.Stat(paths.UserConfig()); err == nil {
		t.Fatal("a dry run wrote the config")
	}
	out, stderr, code = runCLI(t, "import", "pace-maker", "--remove-hooks", "--yes")
	if code != 0 {
		t.Fatalf("import --remove-hooks: exit %d\n%s%s", code, out, stderr)
	}
	var got, want any
	now, _ := os.ReadFile(settings)
	if err := json.Unmarshal(now, &got); err != nil {
		t.Fatalf("settings after: %v\n%s", err, now)
	}
	exp, _ := os.ReadFile(filepath.Join(fixture, "settings.after.json"))
	json.Unmarshal([]byte(strings.ReplaceAll(string(exp), "@HOME@", home)), &want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("settings after --remove-hooks:\n%s\nwant settings.after.json", now)
	}
	backups, _ := filepath.Glob(settings + ".warden-backup-*")
	if len(backups) != 1 {
		t.Fatalf("backups %v, want one", backups)
	}
	if b, _ := os.ReadFile(backups[0]); string(b) != string(original) {
		t.Error("the backup is not the original settings")
	}
	// Again: nothing left to remove.
	out, _, _ = runCLI(t, "import", "pace-maker", "--remove-hooks", "--yes")
	if !strings.Contains(out, "no pace-maker hooks registered") {
		t.Errorf("second run:\n%s", out)
	}
}

func TestImportPaceMakerRefusesBadInput(t *testing.T) {
	home, _, _ := importHome(t)
	os.WriteFile(filepath.Join(home, ".claude-pace-maker", "config.json"), []byte("{\"enabled\": tru"), 0o644)
	_, stderr, code := runCLI(t, "import", "pace-maker")
	if code == 0 || !strings.Contains(stderr, "config.json is not a JSON object") {
		t.Errorf("malformed config: exit %d, %q", code, stderr)
	}
	if _, err := os.Stat(paths.UserConfig()); err == nil {
		t.Error("a failed import wrote the config")
	}
	_, stderr, code = runCLI(t, "import", "pace-maker", "--from", filepath.Join(home, "nowhere"))
	if code == 0 || !strings.Contains(stderr, "--from DIR") {
		t.Errorf("missing dir: exit %d, %q", code, stderr)
	}
}
