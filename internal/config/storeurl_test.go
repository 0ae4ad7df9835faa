package config

import (
	"strings"
	"testing"
)

func TestStoreURLValidation(t *testing.T) {
	for _, c := range []struct {
		url  string
		want string // fragment of the problem; "" = valid
	}{
		{"", ""},
		{"postgres://warden:s3cret@db.example:5432/warden", ""},
		{"postgresql://db.example/warden?sslmode=require", ""},
		{"host=/var/run/postgresql dbname=warden", ""},
		{"mysql://u:s3cret@db/warden", "scheme mysql"},
		{"postgres://u:s3cret@db.example:port/warden", "does not parse"},
		{"postgres://u:s3cret@db.example:5432/", "names no database"},
		{"postgres:///warden", "names no host"},
		{"just some words", "not a PostgreSQL URL"},
	} {
		got := CheckStoreURL(c.url)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("CheckStoreURL(%q) = %q, want %q", c.url, got, c.want)
		}
		if strings.Contains(got, "s3cret") {
			t.Errorf("the problem shows the password: %q", got)
		}
	}
}

// A bad store.url is a problem naming the key and the fix, on its line,
// without the password; the default (SQLite) stands.
func TestStoreURLInConfigFile(t *testing.T) {
	user, proj := files(t, "[store]\nurl = \"mysql://u:s3cret@db/w\"\n", "[store]\nurl = \"postgres://h/x\"\n")
	cfg, problems := Load(user, proj)
	if cfg.Store.URL != "" {
		t.Errorf("a bad URL was kept: %q", cfg.Store.URL)
	}
	var msgs []string
	for _, p := range problems {
		msgs = append(msgs, p.Message)
		if strings.Contains(p.Message, "s3cret") {
			t.Errorf("problem shows the password: %s", p.Message)
		}
	}
	all := strings.Join(msgs, "\n")
	if !strings.Contains(all, "store.url: has scheme mysql") || !strings.Contains(all, "postgres://USER:PASSWORD@HOST:5432/DATABASE") {
		t.Errorf("problems:\n%s", all)
	}
	if len(problems) != 2 { // and the project file may not set it
		t.Errorf("%d problems, want 2 (bad value, project may not set it):\n%s", len(problems), all)
	}

	user, _ = files(t, "[store]\nurl = \"postgres://w:pw@db:5432/warden\"\n", "")
	cfg, problems = Load(user, "")
	if len(problems) != 0 || cfg.Store.URL != "postgres://w:pw@db:5432/warden" {
		t.Fatalf("good URL: %q %v", cfg.Store.URL, problems)
	}
	settings, _ := Effective(user, "")
	for _, s := range settings {
		if s.Key == "store.url" && strings.Contains(FormatValue(s.Value), "pw@") {
			t.Errorf("config show would print the password: %v", s.Value)
		}
	}
	t.Setenv(DatabaseURLEnv, "")
	if u, from := cfg.StoreURL(); u != cfg.Store.URL || from != "store.url" {
		t.Errorf("StoreURL = %q from %q", u, from)
	}
	t.Setenv(DatabaseURLEnv, "postgres://env@other/db")
	if u, from := cfg.StoreURL(); u != "postgres://env@other/db" || from != DatabaseURLEnv {
		t.Errorf("the environment must win: %q from %q", u, from)
	}
	if u, from := Defaults().StoreURL(); u != "postgres://env@other/db" || from != DatabaseURLEnv {
		t.Errorf("env without store.url: %q from %q", u, from)
	}
	t.Setenv(DatabaseURLEnv, "")
	if u, _ := Defaults().StoreURL(); u != "" {
		t.Errorf("default store: %q, want SQLite", u)
	}
}
