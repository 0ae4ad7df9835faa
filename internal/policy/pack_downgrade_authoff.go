package policy

import (
	_ "embed"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/callfacts"
	"github.com/warden-dev/warden/internal/datatable"
	"github.com/warden-dev/warden/internal/lazyre"
)

// A server's or a device's authentication switched off as data: the
// settings that do it, in each config file's own spelling, are
// policy/authoff.txt. Commands that switch a protection off (fail2ban
// stopped, Gatekeeper, a bootloader's environment, Android's package
// verifier) are callfacts/downgrade.txt and hostsec.txt.

//go:embed authoff.txt
var authOffText string

// authOffSettings is authoff.txt's expressions, each multi-line and
// case-insensitive (a here-document's lines are matched one by one), one
// lazyre pattern per line: each then has the literals it needs checked
// first, so text naming none of a setting's words (most arguments of most
// commands) skips its regexp. Joined into one alternation they were too
// many for that check, and the alternation ran on every written argument.
var authOffSettings = sync.OnceValue(func() []*lazyRE { return authOffTables().any })

// authOffTables: the settings that switch authentication off in any
// file, and those that do so only in the file a "file=NAME" kind names
// (a method replaced by trust in pg_hba.conf: the word alone says
// nothing elsewhere; plat12).
var authOffTables = sync.OnceValue(func() (t struct {
	any     []*lazyRE
	inFile  map[string][]*lazyRE
	fleet   []*lazyRE
	apiOpen []*lazyRE
}) {
	t.inFile = map[string][]*lazyRE{}
	datatable.Must("authoff.txt", authOffText, 2, func(l datatable.Line) error {
		x := strings.Join(l.Fields[1:], " ")
		if _, err := regexp.Compile(x); err != nil {
			return l.Errorf("bad expression %q: %v", x, err)
		}
		if l.Fields[0] == "api-open" {
			t.apiOpen = append(t.apiOpen, re(`(?i)`+x))
			return nil
		}
		if l.Fields[0] == "fleet" {
			t.fleet = append(t.fleet, re(`(?i)`+x))
			return nil
		}
		if f, ok := strings.CutPrefix(l.Fields[0], "file="); ok {
			t.inFile[f] = append(t.inFile[f], re(`(?im)`+x))
			return nil
		}
		t.any = append(t.any, re(`(?im)`+x))
		return nil
	})
	return t
})

// authOffInFile is authOffIn for the settings of the file named base.
func authOffInFile(base string) func(string) string {
	rs := authOffTables().inFile[base]
	return func(t string) string {
		for _, r := range rs {
			if m := r.FindString(t); m != "" {
				return m
			}
		}
		return ""
	}
}

// authOffIn is the first authoff.txt setting found in t, "" for none.
func authOffIn(t string) string {
	// the text's byte pairs, read once, rule out most settings without
	// a search of their words each (lazyre/pairs.go)
	pairs, ascii := lazyre.PairsOf(t)
	for _, r := range authOffSettings() {
		if ascii && !r.MayHold(pairs) {
			continue
		}
		if m := r.FindString(t); m != "" {
			return m
		}
	}
	return ""
}

// sedEditors write the replacement of an s/OLD/NEW/ command.
var sedEditors = map[string]bool{"sed": true, "gsed": true, "perl": true, "ssed": true}

// writtenAuthOff finds an authoff.txt setting in the text a line writes:
// a sed or perl substitution's replacements (the text it removes is not
// written), other commands' words and here-documents.
func writtenAuthOff(e *Env) string { return writtenMatch(e, authOffIn) }

// writtenMatch is writtenAuthOff with the settings authOff finds.
func writtenMatch(e *Env, authOffIn func(string) string) string {
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		// the here-document, then the words: walked in place, not copied
		for k := -1; k < len(c.Args); k++ {
			t := c.Heredoc
			if k >= 0 {
				t = c.Args[k]
			}
			if t == "" || strings.HasPrefix(t, "-") && len(t) < 4 {
				continue
			}
			if sedEditors[c.Name] {
				for _, r := range sedReplacements(t) {
					if authOffIn(r) != "" {
						return strings.TrimSpace(r)
					}
				}
				continue
			}
			if m := authOffIn(t); m != "" {
				return strings.TrimSpace(m)
			}
		}
	}
	return ""
}

// sedReplacements are the NEW parts of every s/OLD/NEW/ command of a sed
// script (commands joined by ; or new lines); a script without one
// writes nothing of its own.
func sedReplacements(t string) []string {
	var out []string
	for _, cmd := range strings.FieldsFunc(t, func(r rune) bool { return r == ';' || r == '\n' }) {
		cmd = strings.TrimSpace(cmd)
		if i := strings.Index(cmd, "s"); i > 0 && i < 4 && !strings.ContainsAny(cmd[:i], " \t") {
			cmd = cmd[i:] // an address before the command: /^rcon/s/…/…/
		}
		if r := sedReplacement(cmd); r != cmd {
			out = append(out, r)
		}
	}
	return out
}

// authOffTarget is the file a line writes that the setting lands in: a
// written or replaced file not in a scratch directory and not named for
// a test or local development (conf/local.conf, docker/dev/redis.conf).
func authOffTarget(e *Env) string {
	for _, tc := range e.Touches() {
		if tc.Effect != callfacts.PathWrite && tc.Effect != callfacts.PathOverwrite || tc.Zone == callfacts.ZoneTemp || throwawayKey(tc.Path, e.F.Project) {
			continue
		}
		return tc.Path
	}
	return ""
}

func authOffConfigRules() []Rule {
	return []Rule{
		{ID: "core.local:auth-off-config", Mode: Deny, On: On(FactTouch | FactNotShell),
			Desc: "A setting that switches a server's or device's authentication off written into its config (online-mode=false and an empty rcon.password in server.properties, requirepass commented out, authorization: disabled, .z.pw returning 1b, allow_anonymous true, PermitEmptyPasswords yes, Yocto debug-tweaks or empty-root-password in a production image, ro.adb.secure=0): every client or anyone at the device gets in without a password; the settings are data (policy/authoff.txt); a config named for local development or a test stays allowed",
			Match: func(e *Env) string {
				if e.F.FilePath != "" && e.F.Content != "" {
					p := NormPath(e.F.FilePath, e.F.Cwd, e.F.Home)
					if callfacts.ZoneOf(p, e.F.Home, e.F.Project) == callfacts.ZoneTemp || throwawayKey(p, e.F.Project) {
						return ""
					}
					if m := authOffIn(e.F.Content); m != "" {
						return homeRel(p, e.F.Home) + " is given " + strings.TrimSpace(m) + ": authentication switched off for every client"
					}
					return ""
				}
				f := authOffTarget(e)
				if f == "" {
					return ""
				}
				if m := writtenAuthOff(e); m != "" {
					return homeRel(f, e.F.Home) + " is given " + m + ": authentication switched off for every client"
				}
				if b := filepath.Base(f); authOffTables().inFile[b] != nil {
					if m := writtenMatch(e, authOffInFile(b)); m != "" {
						return homeRel(f, e.F.Home) + " is given " + m + ": authentication switched off for every client"
					}
				}
				return ""
			},
			Catch: []string{"sed -i 's/^online-mode=true/online-mode=false/' ~/servers/survival/server.properties",
				"sed -i 's/^rcon.password=.*/rcon.password=/; s/^enable-rcon=false/enable-rcon=true/' ~/servers/survival/server.properties",
				"echo 'EXTRA_IMAGE_FEATURES += \"debug-tweaks allow-empty-password empty-root-password\"' >> meta-acme/recipes-core/images/gateway-prod-image.bb",
				"sudo sed -i 's/^requirepass/# requirepass/' /etc/redis/redis.conf",
				"echo 'allow_anonymous true' | sudo tee -a /etc/mosquitto/mosquitto.conf",
				"printf 'PermitEmptyPasswords yes\\n' >> /etc/ssh/sshd_config.d/50-x.conf",
				"ssh kdb@tp-prod \"echo '.z.pw:{[u;p]1b}' >> /opt/kdb/tp/init.q\"",
				`{"tool_name":"Edit","tool_input":{"file_path":"/home/dev/servers/survival/server.properties","old_string":"online-mode=true","new_string":"online-mode=false"}}`,
				`{"tool_name":"Write","tool_input":{"file_path":"/home/dev/proj/deploy/mosquitto.conf","content":"listener 1883 0.0.0.0\nallow_anonymous true\n"}}`},
			Allow: []string{"sed -i 's/^online-mode=false/online-mode=true/' ~/servers/survival/server.properties",
				"echo 'EXTRA_IMAGE_FEATURES += \"debug-tweaks\"' >> build/conf/local.conf",
				"grep online-mode ~/servers/survival/server.properties",
				"sed -i '/debuggable true/d' app/build.gradle",
				"echo 'requirepass s3cr3t-from-vault' >> deploy/redis.conf",
				"echo 'protected-mode no' >> docker/dev/redis.conf",
				`{"tool_name":"Edit","tool_input":{"file_path":"/home/dev/servers/survival/server.properties","old_string":"online-mode=false","new_string":"online-mode=true"}}`,
				`{"tool_name":"Write","tool_input":{"file_path":"/home/dev/proj/test/fixtures/mosquitto.conf","content":"allow_anonymous true\n"}}`}},
	}
}
