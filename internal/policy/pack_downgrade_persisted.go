package policy

import (
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// checkOffText: a setting, in the spelling of a config or start-up file,
// that switches off a check for every later run: ssh's host-key check
// (StrictHostKeyChecking no, known hosts sent to /dev/null), curl's and
// wget's certificate checks (insecure in ~/.curlrc, check_certificate =
// off), git's (sslVerify = false). The environment spellings
// (GIT_SSL_NO_VERIFY=1, NODE_TLS_REJECT_UNAUTHORIZED=0, PIP_TRUSTED_HOST)
// are callfacts/downgrade.txt's.
var checkOffText = re(`(?i)StrictHostKeyChecking\s*[= ]\s*["']?(?:no|off|false)\b|UserKnownHostsFile\s*[= ]\s*/dev/null|(?m:^\s*["']?(?:-k|--insecure|insecure)\s*["']?\s*$)|check_certificate\s*=\s*off|sslverify\s*=\s*(?:false|0|no)\b|strict-ssl\s*=\s*false|verify_ssl\s*=\s*(?:false|0)`)

// laterConfigs are per-user or system configs every later run of a tool
// reads, besides the shell's start-up files (callfacts.RunsLater).
var laterConfigs = map[string]bool{".curlrc": true, ".wgetrc": true, ".gitconfig": true, "environment": true, "ssh_config": true, "wgetrc": true, "gitconfig": true}

// persistedConfig reports whether p is read by every later shell or by
// every later run of a tool.
func persistedConfig(p string) bool {
	if callfacts.RunsLater(p) || laterConfigs[path.Base(p)] {
		return true
	}
	return strings.HasSuffix(p, "/.ssh/config") || strings.Contains(p, "/ssh_config.d/") || strings.HasSuffix(p, "/git/config")
}

// persistedDowngradeRule: a check switched off in a file every later
// session reads (export GIT_SSH_COMMAND="ssh -o StrictHostKeyChecking=no"
// >> ~/.bashrc, insecure >> ~/.curlrc): not one command's exception but
// the machine's new default, unseen from then on.
func persistedDowngradeRule() Rule {
	return Rule{ID: "core.local:persisted-downgrade", Mode: Deny, Tools: shellTools, On: On(FactTouch),
		Desc: "A security check switched off in a file every later session reads: a start-up file (~/.bashrc, ~/.profile, /etc/environment) given GIT_SSH_COMMAND with StrictHostKeyChecking=no, GIT_SSL_NO_VERIFY=1, NODE_TLS_REJECT_UNAUTHORIZED=0 or PIP_TRUSTED_HOST, ~/.curlrc given insecure, ~/.ssh/config or ~/.gitconfig told not to verify: every later command trusts whoever answers; the same option on one command is that command's business",
		Match: func(e *Env) string {
			hit := ""
			for _, tc := range e.Touches() {
				if tc.Effect != callfacts.PathWrite && tc.Effect != callfacts.PathOverwrite {
					continue
				}
				if persistedConfig(tc.Path) {
					hit = tc.Path
					break
				}
			}
			if hit == "" {
				return ""
			}
			// the written text is an argument or the here-document of a
			// command of the line (echo '…' >> ~/.bashrc, tee -a <<EOF)
			what := lineTexts(e, func(t string) string {
				if m := checkOffText.FindString(t); m != "" {
					return strings.TrimSpace(m)
				}
				if lv, n, v := callfacts.EnvDowngrade(strings.ReplaceAll(strings.ReplaceAll(t, `"`, " "), "'", " ")); lv != "" && n != "LD_PRELOAD" && n != "DYLD_INSERT_LIBRARIES" && !strings.HasPrefix(n, "WARDEN_") {
					return n + "=" + v
				}
				return ""
			})
			if what == "" {
				return ""
			}
			return "the line writes " + what + " into " + homeRel(hit, e.F.Home) + ": every later session skips the check"
		},
		Catch: []string{`echo 'export GIT_SSH_COMMAND="ssh -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null"' >> ~/.bashrc`, `echo 'export NODE_TLS_REJECT_UNAUTHORIZED=0' >> ~/.zshrc`,
			`echo insecure >> ~/.curlrc`, `printf 'Host *\n  StrictHostKeyChecking no\n' >> ~/.ssh/config`, `echo 'GIT_SSL_NO_VERIFY=1' | sudo tee -a /etc/environment`, `echo 'export PIP_TRUSTED_HOST=pypi.corp.example' >> ~/.profile`,
			`echo 'check_certificate = off' >> ~/.wgetrc`},
		Allow: []string{`GIT_SSH_COMMAND="ssh -o StrictHostKeyChecking=no" git clone git@github.com:o/r.git`, `echo 'export EDITOR=vim' >> ~/.bashrc`, `echo 'silent' >> ~/.curlrc`,
			`echo 'export NODE_TLS_REJECT_UNAUTHORIZED=0' >> ./ci/env.sh`, `printf 'Host gh\n  HostName github.com\n' >> ~/.ssh/config`, `ssh -o StrictHostKeyChecking=no ci@10.0.0.5 uptime`}}
}
