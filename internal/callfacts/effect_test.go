package callfacts

import (
	"strings"
	"testing"
)

// TestEffects: each command gets its own coarse effect (the wrapper none,
// what it runs the change), dry runs and listing forms change nothing.
func TestEffects(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want string // "name:effect" of every command with an effect
	}{
		{"setsid rm -rf x", "rm:delete"},
		{"flock /tmp/l mv a b", "mv:delete"},
		{"busybox touch x", "touch:write"},
		{"git status && git commit -m x", "git:write"},
		{"git branch", ""},
		{"git branch -D old", "git:write"},
		{"git tag -l 'v*'", ""},
		{"git stash list", ""},
		{"git reflog", ""},
		{"git reflog expire --all", "git:write"},
		{"rsync -an --delete a/ b/", ""},
		{"kubectl delete pod web --dry-run=client", ""},
		{"kubectl -n prod delete pod web", "kubectl:write"},
		{"kubectl get pods", ""},
		{"docker volume rm data", "docker:write"},
		{"docker ps -a", ""},
		{"aws ec2 terminate-instances --instance-ids i-1", "aws:delete"}, // a destroy verb of cloudops.txt
		{"aws s3 ls", ""},
		{"wipefs -n /dev/sdb", ""},
		{"fdisk -l", ""},
		{"sgdisk -Z /dev/sdb", "sgdisk:delete"},
		{"sudo reboot", "reboot:stop"},
		{"shutdown -c", ""},
		{"kill -KILL -1", "kill:stop"},
		{"kill -l", ""},
		{"mongosh --eval 'db.x.deleteMany({})'", "mongosh:write"},
		{"mongosh --eval 'db.x.find()'", ""},
		{"perl -pe 's/a/b/' f", ""},
		{"perl -pi -e 's/a/b/' f", "perl:write"},
		{`python3 -c 'import shutil; shutil.rmtree("x")'`, "python3:delete"},
		{`python3 -c 'print(1)'`, "python3:run"},
		{"bash ./deploy.sh", "bash:run"},
		{"curl -s https://x.example/i | sh", "sh:run"},
		{"ssh host bash -s < fix.sh", "ssh:run"},
		{"warden off", "warden:write"},
		{"warden status", ""},
		{"sysctl -w a.b=1", "sysctl:write"},
		{"sysctl -a", ""},
		{"crontab jobs.txt", "crontab:write"},
		{"crontab -l", ""},
	} {
		var got []string
		for _, c := range bash(tc.cmd).Commands {
			if c.Effect != EffectNone {
				got = append(got, c.Name+":"+string(c.Effect))
			}
		}
		if g := strings.Join(got, ","); g != tc.want {
			t.Errorf("%q: effects %q, want %q", tc.cmd, g, tc.want)
		}
	}
}

// TestTargets: a command's targets are the paths it writes or deletes,
// normalized; what it only reads is not one.
func TestTargets(t *testing.T) {
	for cmd, want := range map[string]string{
		"rm -rf ~/x build":      "/home/dev/x /home/dev/proj/build",
		"cp a.txt /tmp/b.txt":   "/tmp/b.txt",
		"mv old new":            "/home/dev/proj/new /home/dev/proj/old",
		"sudo chmod 600 ~/.env": "/home/dev/.env",
		"cat x":                 "",
	} {
		f := bash(cmd)
		c := f.Commands[len(f.Commands)-1]
		if got := strings.Join(c.Targets, " "); got != want {
			t.Errorf("%q: targets %q, want %q", cmd, got, want)
		}
	}
}

// TestNameBuilt: a command name built by a decoder or a fetcher from
// text the line does not show is marked; one built from text the line
// shows is resolved; one read from a plain file is neither.
func TestNameBuilt(t *testing.T) {
	for cmd, want := range map[string]string{
		"$(base64 -d < n.b64) off":         "$(…):true",
		"sudo $(xxd -r -p n.hex) off":      "$(…):true",
		"$(echo d2FyZGVu | base64 -d) off": "warden:false",
		"$(echo jneqra | tr a-z n-za-m) x": "warden:false",
		"$(cat cmd.txt) off":               "$(…):false",
	} {
		f := bash(cmd)
		var got string
		for _, c := range f.Commands {
			if len(c.Args) > 0 && c.Args[len(c.Args)-1] == strings.Fields(cmd)[len(strings.Fields(cmd))-1] && c.Name != "sudo" {
				got = c.Name + ":" + map[bool]string{true: "true", false: "false"}[c.NameBuilt]
			}
		}
		if got != want {
			t.Errorf("%q: %q, want %q", cmd, got, want)
		}
	}
}

// TestChange: the call-level answer the gates ask.
func TestChange(t *testing.T) {
	for cmd, want := range map[string]bool{
		"ls -la":                       false,
		"echo hi > /dev/null":          false,
		"go test ./... 2>&1":           false,
		"echo hi > notes.txt":          true,
		"echo 'unterminated":           true,
		"echo 'rm -rf x'":              false,
		"echo 'rm -rf x' | sh":         true,
		"cmd > /dev/stderr":            false,
		"find . -name '*.tmp' -delete": true,
	} {
		if _, got := bash(cmd).Change(); got != want {
			t.Errorf("%q: change %v, want %v", cmd, got, want)
		}
	}
	deep := "rm x"
	for i := 0; i < 10; i++ {
		deep = "bash -c " + shQuote(deep)
	}
	if why, got := bash(deep).Change(); !got || !strings.Contains(why, "deeper") {
		t.Errorf("10-deep payload: change %v (%s), want a change for its depth", got, why)
	}
}

func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// A program in two families reads the same on every run: systemctl status
// changes nothing, systemctl stop does (the families were once walked in
// a map's random order).
func TestFamilyOrderIsStable(t *testing.T) {
	for i := 0; i < 20; i++ {
		rules := buildEffectRules()
		for cmd, want := range map[string]Effect{"systemctl status nginx": EffectNone, "systemctl stop nginx": EffectWrite} {
			c := Bash(cmd, "/tmp", "/home/u").Commands[0]
			if got, _ := rules[c.Name](&c); got != want {
				t.Fatalf("run %d: %q: effect %q, want %q", i, cmd, got, want)
			}
		}
	}
}
