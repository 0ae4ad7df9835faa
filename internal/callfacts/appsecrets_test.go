package callfacts

import (
	"encoding/json"
	"testing"
)

// Applications' credentials files are known by name, by their last
// segments and by glob, whatever the case; templates and look-alikes are
// not.
func TestAppSecretFile(t *testing.T) {
	for p, want := range map[string]string{
		"/srv/www/wp-config.php":                                "wordpress",
		"/home/dev/proj/web/sites/default/settings.php":         "drupal",
		"/home/dev/proj/app/etc/env.php":                        "magento",
		"/home/dev/proj/envs/prod/terraform.tfstate":            "terraform",
		"/home/dev/.local/share/unity3d/Unity/Unity_lic.ulf":    "license",
		"/home/dev/.p4tickets":                                  "perforce",
		"/home/dev/.steam/steam/config/config.vdf":              "steam",
		"/home/dev/proj/appsettings.Production.json":            "dotnet",
		"/home/dev/Downloads/ci-bot_accessKeys.csv":             "cloud-key",
		"/home/dev/proj/wp-config-sample.php":                   "",
		"/home/dev/proj/web/sites/default/default.settings.php": "",
		"/home/dev/proj/settings.php":                           "",
		"/home/dev/proj/app/etc/config.php":                     "",
		"/home/dev/proj/README.md":                              "",
		"/home/dev/proj/main.tf":                                "",
	} {
		if got := AppSecretFile(p); got != want {
			t.Errorf("AppSecretFile(%q) = %q, want %q", p, got, want)
		}
	}
}

// Dump commands are known by program and words; their help and look-alike
// verbs are not.
func TestDumps(t *testing.T) {
	for line, want := range map[string]bool{
		"pg_dump app":                           true,
		"wp db export - --ssh=deploy@x/var/www": true,
		"drush sql-dump --gzip":                 true,
		"redis-cli --rdb -":                     true,
		"bq extract ds.t gs://b/x.csv":          true,
		"pg_dump --help":                        false,
		"wp db check":                           false,
		"redis-cli --scan":                      false,
		"bq ls":                                 false,
		"mysql -e 'SELECT * FROM users' shop":   true,
		"mysql shop < schema.sql":               false,
	} {
		in, _ := json.Marshal(map[string]string{"command": line})
		f := Normalize(Call{Event: "PreToolUse", Tool: "Bash", Input: in, Cwd: "/home/dev/proj", Home: "/home/dev"})
		got := false
		for i := range f.Commands {
			got = got || f.Commands[i].Dumps()
		}
		if got != want {
			t.Errorf("%q: Dumps = %v, want %v", line, got, want)
		}
	}
}
