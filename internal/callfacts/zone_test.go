package callfacts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestZoneOf: every kind of place, the line's own resolution of ~, $HOME
// and well-known variables, and targets the line does not show.
func TestZoneOf(t *testing.T) {
	const home, project = "/home/dev", "/home/dev/proj"
	for p, want := range map[string]Zone{
		"/home/dev/proj/build":                              ZoneProject,
		"/home/dev/proj":                                    ZoneRepo,
		"/home/dev/proj/*":                                  ZoneRepo,
		"/home/dev/proj/.git/config":                        ZoneRepo,
		"/home/dev/proj/.claude/settings.json":              ZoneAgent,
		"/tmp/x":                                            ZoneTemp,
		"/var/tmp/y":                                        ZoneTemp,
		"/home/dev/.cache/pip":                              ZoneCache,
		"/home/dev/go/pkg/mod/x":                            ZoneCache,
		"/home/dev/.ros/log/latest":                         ZoneCache, // a tool's logs in its dot-directory
		"/home/dev/.npm/_logs":                              ZoneCache,
		"/home/dev/.ros":                                    ZoneHomeConfig,
		"/home/dev/.local/share/godot/shader_cache":         ZoneCache, // a tool's cache beside its data
		"/home/dev/.local/share/godot/export_templates":     ZoneHomeConfig,
		"/home/dev/.config/Code/CachedData/x":               ZoneCache,
		"/home/dev/.config/Code/GPUCache":                   ZoneCache,
		"/home/dev/.config/Code/User/settings.json":         ZoneHomeConfig,
		"/home/dev/.local/share/JetBrains/IdeaIC2024.1/tmp": ZoneCache,
		"/home/dev/.ssh/log":                                ZoneCredentials,
		"/home/dev":                                         ZoneHomeData,
		"/home/dev/Documents":                               ZoneHomeData,
		"/home/dev/some-new-folder/a.txt":                   ZoneHomeData,
		"/home/dev/.bashrc":                                 ZoneHomeConfig,
		"/home/dev/.config/nvim":                            ZoneHomeConfig,
		"/home/dev/.ssh/id_rsa":                             ZoneCredentials,
		"/home/dev/.aws":                                    ZoneCredentials,
		"/home/dev/.config/gh/hosts.yml":                    ZoneCredentials,
		"/home/dev/.kube/config":                            ZoneCredentials,
		"/home/dev/.docker/config.json":                     ZoneCredentials,
		"/home/dev/.netrc":                                  ZoneCredentials,
		"/srv/app/deploy/id_ed25519":                        ZoneCredentials,
		"/etc/shadow":                                       ZoneCredentials,
		"/etc/hosts":                                        ZoneSystem,
		"/usr/lib":                                          ZoneSystem,
		"/":                                                 ZoneSystem,
		"/*":                                                ZoneSystem,
		"/home/other":                                       ZoneSystem,
		"/home/dev/.warden/config.toml":                     ZoneWarden,
		"/home/dev/.claude/settings.json":                   ZoneWarden,
		"/usr/local/bin/warden":                             ZoneWarden,
		"/home/dev/.claude/projects":                        ZoneAgent,
		"/home/dev/.claude.json":                            ZoneAgent,
		"/work/other-checkout":                              ZoneElsewhere,
		"/home/dev/proj/$DIR":                               ZoneUnknown,
		"/home/dev/proj/$DIR/*":                             ZoneUnknown,
		"/home/dev/proj/${DIR}":                             ZoneUnknown,
		"/home/dev/proj/$BUILD_DIR/out":                     ZoneUnknownSub,
		"/home/dev/proj/$TMPDIR/x":                          ZoneTemp,
		"/home/dev/proj/${XDG_CACHE_HOME}/go":               ZoneCache,
		"/home/dev/proj/$XDG_CONFIG_HOME":                   ZoneHomeConfig,
	} {
		if got := ZoneOf(p, home, project); got != want {
			t.Errorf("ZoneOf(%q) = %s, want %s", p, got, want)
		}
	}
}

// TestTouches: each effect on each target, through the line's own
// resolution (cd chains, $HOME quoted, braces), wrappers and redirects.
func TestTouches(t *testing.T) {
	for cmd, want := range map[string]string{
		"rm -rf ~/Documents":                "recursive-delete:home-data",
		`rm -rf "$HOME"/Music`:              "recursive-delete:home-data",
		"rm -r ${HOME}/{a,.b}":              "recursive-delete:home-data recursive-delete:home-config",
		"cd ~ && rm -rf Pictures":           "recursive-delete:home-data",
		"pushd /etc && rm hosts":            "delete:system",
		"sudo -u root rm -f /etc/motd":      "delete:system",
		"find ~/x -delete":                  "recursive-delete:home-data",
		"find . -name '*.pyc' -delete":      "delete:repo",
		"rsync -a --delete ./src/ ./dist/":  "recursive-delete:project",
		"rsync -an --delete ./src/ ~/":      "",
		"mv ~/.bashrc /tmp/x":               "overwrite:temp delete:home-config",
		"cp /dev/null ~/.zsh_history":       "truncate:home-config",
		"truncate -s0 /var/log/syslog":      "truncate:system",
		": > ~/.gitconfig":                  "truncate:home-config",
		"echo x > out.txt":                  "overwrite:project",
		"echo x >> ~/.bashrc":               "write:home-config",
		"echo x > /dev/null":                "",
		"chmod -R 777 /usr/local":           "permissions:system",
		"tee -a ~/.ssh/authorized_keys < k": "write:credentials",
		`rm -rf "$TARGET"`:                  "recursive-delete:unknown",
		"gio trash ~/Desktop/x":             "",
		"trash-put ~/Downloads":             "recursive-delete:home-data",
		"git ls-files '*.orig' | xargs rm":  "delete:project", // the repository's files (output.go gitListsFiles)
		"cat ~/.bashrc":                     "",
	} {
		var got []string
		for _, tc := range bash(cmd).Touches() {
			got = append(got, string(tc.Effect)+":"+string(tc.Zone))
		}
		if g := strings.Join(got, " "); g != want {
			t.Errorf("%q: touches %q, want %q", cmd, g, want)
		}
	}
}

// TestTouchesThroughLinks: a delete below a link lands in the link's
// target — one the line creates, or one on disk now.
func TestTouchesThroughLinks(t *testing.T) {
	f := bash("ln -s ~ h && rm -rf h/Documents")
	if got := f.Touches(); len(got) != 2 || got[1].Zone != ZoneHomeData || got[1].Path != testHome+"/Documents" {
		t.Errorf("line link: %+v", got)
	}
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	proj := filepath.Join(dir, "proj")
	for _, d := range []string{filepath.Join(home, "Documents"), proj} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(home, filepath.Join(proj, "data")); err != nil {
		t.Fatal(err)
	}
	f = Bash("rm -rf data/Documents; rm -f data", proj, home)
	got := f.Touches()
	if len(got) != 2 || got[0].Zone != ZoneHomeData || got[1].Zone != ZoneProject {
		t.Errorf("disk link: %+v", got)
	}
}

// TestWritesThroughLinks: a write to a link lands in the file it points
// at — a link the line creates, or one on disk in the project — while
// removing a link removes only the link.
func TestWritesThroughLinks(t *testing.T) {
	f := bash("ln -sf ~/.bashrc notes.txt && echo hi > notes.txt")
	if got := f.Touches(); len(got) < 2 || got[len(got)-1].Zone != ZoneHomeConfig || got[len(got)-1].Path != testHome+"/.bashrc" {
		t.Errorf("line link: %+v", got)
	}
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	proj := filepath.Join(dir, "proj")
	for _, d := range []string{home, proj} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(home, ".profile"), filepath.Join(proj, "notes.md")); err != nil {
		t.Fatal(err)
	}
	got := Bash("echo x >> notes.md; rm notes.md; echo y > other.md", proj, home).Touches()
	want := map[PathEffect]Touch{
		PathWrite:     {Path: filepath.Join(home, ".profile"), Zone: ZoneHomeConfig},
		PathDelete:    {Path: filepath.Join(proj, "notes.md"), Zone: ZoneProject},
		PathOverwrite: {Path: filepath.Join(proj, "other.md"), Zone: ZoneProject},
	}
	if len(got) != len(want) {
		t.Fatalf("disk link: %+v", got)
	}
	for _, g := range got {
		if w := want[g.Effect]; g.Path != w.Path || g.Zone != w.Zone {
			t.Errorf("disk link: %s lands on %s (%s), want %s (%s)", g.Effect, g.Path, g.Zone, w.Path, w.Zone)
		}
	}
}

// A task's agent works in a worktree warden keeps under its own home: its
// files there are the project's (the agent must be able to write them),
// while the rest of warden's home stays warden's.
func TestZoneOfAgentWorktree(t *testing.T) {
	const home, project = "/home/dev", "/home/dev/.warden/worktrees/003/tagx"
	for p, want := range map[string]Zone{
		project + "/hello.txt":              ZoneProject,
		project + "/src/main.go":            ZoneProject,
		project:                             ZoneRepo,
		project + "/.git":                   ZoneRepo,
		project + "/.claude/settings.json":  ZoneAgent,
		"/home/dev/.warden/config.toml":     ZoneWarden,
		"/home/dev/.warden/worktrees/003":   ZoneWarden,
		"/home/dev/.warden/worktrees/other": ZoneWarden,
	} {
		if got := ZoneOf(p, home, project); got != want {
			t.Errorf("ZoneOf(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestSystemSecretsUnderEtc: systemSecret compares a path with
// systemSecrets only under /etc or /private/etc, so every entry must lie
// there.
func TestSystemSecretsUnderEtc(t *testing.T) {
	for _, d := range systemSecrets {
		if !strings.HasPrefix(d, "/etc/") && !strings.HasPrefix(d, "/private/etc/") {
			t.Errorf("systemSecrets entry %q is not under /etc or /private/etc: systemSecret would never find it", d)
		}
	}
}
