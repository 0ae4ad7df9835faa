package policy

import (
	"net/url"
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// downgradeRules: a security check switched off — TLS verification, a
// package index's integrity, the trusted CAs, the system proxy,
// antivirus, script policy. The commands and variables are data
// (callfacts/downgrade.txt); the level says how far the downgrade reaches:
// the whole machine or its protection is deny, one command or one user's
// setting is ask.
func downgradeRules() []Rule {
	denyTools := append(callfacts.DowngradeTools("deny"), "set-executionpolicy", "pip", "pip3")
	askTools := append(callfacts.DowngradeTools("ask"), "set-executionpolicy", "sshpass", "ssh", "scp", "git")
	return []Rule{
		localRule("core.local:downgrade-system", Deny, "Switching off a security check for the whole machine: trusting a CA system-wide (security add-trusted-cert, certutil -addstore Root, trust anchor), a system proxy (networksetup -setwebproxy, netsh winhttp set proxy, gsettings org.gnome.system.proxy), antivirus off or blinded (Set-MpPreference -Disable*, Add-MpPreference -Exclusion*), Set-ExecutionPolicy Unrestricted/Bypass for the machine, pip trusting a foreign index host; the list is data (callfacts/downgrade.txt)", denyTools,
			func(e *Env, c *Cmd) string {
				if lv, why := e.downgrade(c); lv == "deny" {
					return why + ": every program on the machine trusts it from now on"
				}
				if c.Name == "set-executionpolicy" {
					if scope := execPolicyScope(c); scope == "localmachine" && execPolicyOpen(c) {
						return "Set-ExecutionPolicy opens the script policy for the whole machine: " + c.String()
					}
				}
				if h := pipForeignTrusted(c); h != "" {
					return c.Name + " trusts " + h + " without TLS and installs what it serves: " + c.String()
				}
				return ""
			},
			[]string{"sudo security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain ./proxy-ca.crt", "certutil -addstore -f Root corp.cer", "networksetup -setwebproxy Wi-Fi 10.0.0.9 8080",
				"netsh winhttp set proxy 10.0.0.9:8080", "gsettings set org.gnome.system.proxy mode manual", "Set-MpPreference -DisableRealtimeMonitoring $true", "Add-MpPreference -ExclusionPath C:\\Users\\dev",
				"Set-ExecutionPolicy Unrestricted -Scope LocalMachine -Force", "Set-ExecutionPolicy Bypass", "pip install --trusted-host pypi-cache.example.ru -i http://pypi-cache.example.ru/simple requests", "sudo trust anchor ./mitm.pem"},
			[]string{"security find-certificate -a", "certutil -dump corp.cer", "networksetup -getwebproxy Wi-Fi", "netsh winhttp show proxy", "gsettings get org.gnome.system.proxy mode", "Get-MpPreference",
				"Set-ExecutionPolicy RemoteSigned -Scope Process", "Set-ExecutionPolicy Bypass -Scope Process -Force", "pip install --trusted-host localhost -i http://localhost:8080/simple x", "trust list"}),
		localRule("core.local:downgrade", Ask, "Switching off a check for one command or one user: a package manager told to skip TLS or to install from an index over plain http (npm --strict-ssl=false, pip -i http://…, pip --trusted-host, conda channels http://…), Set-ExecutionPolicy for the current user, ssh with host keys unchecked as root, sshpass -p with the password on the line; the list is data (callfacts/downgrade.txt)", askTools,
			func(e *Env, c *Cmd) string {
				if lv, why := e.downgrade(c); lv == "ask" {
					if !downgradeLocal(c) {
						return why
					}
				}
				switch c.Name {
				case "git":
					if f := e.F.Command; (strings.Contains(f, "sslVerify") || strings.Contains(f, "sslverify")) && !c.Has("--global", "--system") {
						if l := strings.ToLower(f); strings.Contains(l, "sslverify=false") || strings.Contains(l, "sslverify false") || strings.Contains(l, "sslverify=0") {
							return "git runs with TLS checks off: " + c.String()
						}
					}
				case "set-executionpolicy":
					if scope := execPolicyScope(c); scope == "currentuser" && execPolicyOpen(c) {
						return "Set-ExecutionPolicy opens the script policy for every later session of the user: " + c.String()
					}
				case "sshpass":
					if c.Has("-p") || hasPrefixArg(c, "-p") {
						return "sshpass -p puts a password on the command line: " + c.String()
					}
				case "ssh", "scp":
					a := lowerArgs(c)
					if strings.Contains(a, "stricthostkeychecking=no") && strings.Contains(a, "userknownhostsfile=/dev/null") && (strings.Contains(a, "root@") || strings.Contains(a, "-l root")) {
						return c.Name + " logs in as root without checking the host's key: " + c.String()
					}
				}
				return ""
			},
			[]string{"npm install --strict-ssl=false", "pip install --index-url http://10.0.0.5:8080/simple requests", "conda config --add channels http://conda.mirror-cn.example/pkgs", "pip install --trusted-host files.example.org x",
				"Set-ExecutionPolicy Unrestricted -Scope CurrentUser", "sshpass -p hunter2 ssh root@10.0.0.4", "ssh -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null root@203.0.113.9", "uv pip install -i http://mirror.example/simple x", "git -c http.sslVerify=false clone https://git.corp.example/r.git"},
			[]string{"npm install", "pip install -i https://pypi.org/simple requests", "pip install --index-url http://localhost:3141/simple x", "conda config --add channels conda-forge", "Set-ExecutionPolicy RemoteSigned -Scope CurrentUser -WhatIf",
				"sshpass -f ~/.pw ssh host", "ssh -o StrictHostKeyChecking=accept-new dev@host", "git config http.sslVerify true"}),
		localRule("core.local:ca-anchor", Deny, "Adding a certificate to the system's trusted CAs by file (cp … /usr/local/share/ca-certificates/, /etc/pki/ca-trust/source/anchors/): after update-ca-certificates every program trusts whoever holds its key, a proxy reading all TLS traffic included", []string{"cp", "mv", "install", "tee", "ln", "rsync", "dd", "cat"},
			func(e *Env, c *Cmd) string {
				for _, t := range c.Targets {
					for _, d := range caAnchorDirs {
						if strings.HasPrefix(t, d) || t+"/" == d {
							return c.Name + " puts a certificate among the system's trusted CAs: " + t
						}
					}
				}
				return ""
			},
			[]string{"sudo cp mitm-ca.crt /usr/local/share/ca-certificates/ && sudo update-ca-certificates", "sudo install -m644 proxy.pem /etc/pki/ca-trust/source/anchors/proxy.pem", "sudo tee /usr/local/share/ca-certificates/x.crt < x.pem", "sudo ln -s ~/x.pem /etc/ssl/certs/x.pem"},
			[]string{"cp /usr/local/share/ca-certificates/corp.crt ./certs/", "ls /etc/ssl/certs", "cp certs/dev.pem ./build/", "update-ca-certificates --help"}),
		{ID: "core.local:package-config-downgrade", Mode: Deny, Tools: shellTools,
			Desc:  "Writing into a package manager's config file (~/.npmrc, pip.conf, .condarc, .gemrc, .yarnrc, cargo's config, Maven's settings.xml) a trusted host, an index over plain http or TLS checks off: every later install in every project takes what that host serves",
			Match: packageConfigDowngrade,
			Catch: []string{"echo \"trusted-host = pypi.evil.example\" >> ~/.config/pip/pip.conf", "echo 'strict-ssl=false' >> ~/.npmrc", "printf 'channels:\\n  - http://conda.x.example/main\\n' > ~/.condarc", "echo 'registry=http://203.0.113.9/' | tee -a .npmrc",
				"echo ':ssl_verify_mode: 0' >> ~/.gemrc"},
			Allow: []string{"echo 'save-exact=true' >> .npmrc", "cat ~/.config/pip/pip.conf", "echo '[global]\\ntimeout = 60' > ~/.config/pip/pip.conf", "echo 'registry=https://registry.npmjs.org/' > .npmrc"}},
		{ID: "core.local:env-downgrade", Mode: Ask, Tools: shellTools,
			Desc: "Environment that switches off a check or changes what loads for the command or the rest of the line (NODE_TLS_REJECT_UNAUTHORIZED=0, PYTHONHTTPSVERIFY=0, GIT_SSL_NO_VERIFY=1, npm_config_registry/PIP_INDEX_URL to another index, LD_PRELOAD or DYLD_INSERT_LIBRARIES outside the system's libraries, BASH_ENV); the variables are data (callfacts/downgrade.txt)",
			Match: func(e *Env) string {
				if lv, n, v := callfacts.EnvDowngrade(e.F.Command); lv == "ask" {
					return n + "=" + v + " switches off a check or changes what the command loads"
				}
				return ""
			},
			Catch: []string{"NODE_TLS_REJECT_UNAUTHORIZED=0 npm install", "export PYTHONHTTPSVERIFY=0; python3 fetch.py", "GIT_SSL_NO_VERIFY=true git clone https://git.example/r", "env PIP_INDEX_URL=http://mirror.example/simple pip install x",
				"$env:NODE_TLS_REJECT_UNAUTHORIZED=\"0\"; npm ci", "LD_PRELOAD=./libhook.so ./app", "npm_config_registry=https://npm.example.dev npm install"},
			Allow: []string{"NODE_ENV=production npm run build", "NODE_TLS_REJECT_UNAUTHORIZED=1 npm install", "npm_config_registry=https://registry.npmjs.org/ npm install", "LD_PRELOAD=/usr/lib/libjemalloc.so ./app", "PIP_INDEX_URL=http://localhost:3141/simple pip install x", "GOFLAGS=-mod=mod go build ./..."}},
		{ID: "core.local:env-downgrade-deny", Mode: Deny, Tools: shellTools,
			Desc: "Environment that loads code from a scratch directory into a command (LD_PRELOAD=/tmp/…, DYLD_INSERT_LIBRARIES, BASH_ENV) or points installs at a plain-http index on a bare public IP; the variables are data (callfacts/downgrade.txt)",
			Match: func(e *Env) string {
				lv, n, v := callfacts.EnvDowngrade(e.F.Command)
				if lv == "deny" {
					return n + "=" + v + " makes the command load or install what nobody vouches for"
				}
				if lv == "ask" && (n == "LD_PRELOAD" || n == "DYLD_INSERT_LIBRARIES") && e.F.HasCmd("sudo", "doas", "pkexec", "su", "run0") {
					return n + "=" + v + " loads a library into a command run as root"
				}
				return ""
			},
			Catch: []string{"LD_PRELOAD=/tmp/libhook.so ls", "npm_config_registry=http://198.51.100.23:4873 npm install", "DYLD_INSERT_LIBRARIES=/var/tmp/x.dylib /Applications/App.app/Contents/MacOS/App", "export BASH_ENV=/tmp/.e; bash build.sh", "PIP_INDEX_URL=http://203.0.113.9/simple pip install x", "LD_PRELOAD=./libevil.so sudo -E true"},
			Allow: []string{"LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2 ./server", "npm_config_registry=http://localhost:4873 npm install", "LD_LIBRARY_PATH=./build/lib ./build/test", "BASH_ENV=./ci/env.sh bash ci/test.sh"}},
	}
}

// execPolicyScope is Set-ExecutionPolicy's -Scope, lower case; the default
// is the machine's.
func execPolicyScope(c *Cmd) string {
	for i, a := range c.Args {
		if strings.EqualFold(a, "-scope") && i+1 < len(c.Args) {
			return strings.ToLower(c.Args[i+1])
		}
	}
	return "localmachine"
}

func execPolicyOpen(c *Cmd) bool {
	if hasFold(c, "-whatif") {
		return false
	}
	for _, a := range c.Args {
		switch strings.ToLower(a) {
		case "unrestricted", "bypass":
			return true
		}
	}
	return false
}

func hasFold(c *Cmd, o string) bool {
	for _, a := range c.Args {
		if strings.EqualFold(a, o) {
			return true
		}
	}
	return false
}

// pipForeignTrusted is the host pip is told to trust without TLS when
// the index it installs from is on that host and it is not this machine
// or a private address.
func pipForeignTrusted(c *Cmd) string {
	if c.Name != "pip" && c.Name != "pip3" {
		return ""
	}
	host := optValue(c, "--trusted-host")
	if host == "" {
		return ""
	}
	if callfacts.LocalHost(strings.Split(host, ":")[0]) {
		return ""
	}
	for _, o := range []string{"-i", "--index-url", "--extra-index-url"} {
		if u, err := url.Parse(optValue(c, o)); err == nil && u.Scheme == "http" && strings.EqualFold(u.Hostname(), strings.Split(host, ":")[0]) {
			return host
		}
	}
	return ""
}

// downgradeLocal reports whether every URL c names is this machine or a
// private address: an index on localhost is a test fixture.
func downgradeLocal(c *Cmd) bool {
	seen := false
	for _, a := range c.Args {
		if _, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "-") {
			a = v
		}
		if h := hostOf(a); h != "" {
			seen = true
			if !callfacts.LocalHost(h) || !strings.HasPrefix(h, "localhost") && !strings.HasPrefix(h, "127.") {
				return false
			}
		}
	}
	return seen
}

func hostOf(a string) string {
	if !strings.Contains(a, "://") {
		return ""
	}
	u, err := url.Parse(a)
	if err != nil {
		return ""
	}
	return u.Hostname()
}

// caAnchorDirs are where a certificate file becomes trusted by the whole
// system (Debian, Red Hat, Arch, OpenSSL's hashed directory).
var caAnchorDirs = []string{"/usr/local/share/ca-certificates/", "/usr/share/ca-certificates/", "/etc/pki/ca-trust/source/anchors/", "/etc/ca-certificates/trust-source/anchors/", "/etc/ssl/certs/", "/etc/pki/tls/certs/", "/usr/local/etc/openssl/certs/"}

// packageConfigs are the files package managers read their index and TLS
// settings from.
var packageConfigs = map[string]bool{".npmrc": true, "pip.conf": true, "pip.ini": true, ".condarc": true, ".gemrc": true, ".yarnrc": true, ".yarnrc.yml": true,
	"config.toml": true, "config": true, "settings.xml": true, "bunfig.toml": true, "uv.toml": true, ".pydistutils.cfg": true, ".bowerrc": true}

var configDowngrade = re(`(?i)trusted[-_]host|strict[-_]?ssl\s*[=:]?\s*false|enableStrictSsl\s*:\s*false|ssl[-_]verify(?:[-_]mode)?\s*[=:]\s*(?:false|0|no)|(?:registry|index[-_]url|extra[-_]index[-_]url|npmRegistryServer|url|mirror)\s*[=:]?\s*["']?http://|^\s*-\s*http://|check-revoke\s*=\s*false|insecure\s*[=:]\s*true|\bhttp://`)

func packageConfigDowngrade(e *Env) string {
	if len(e.F.Redirects) == 0 && len(e.Touches()) == 0 {
		return ""
	}
	hit := ""
	for _, tc := range e.Touches() {
		b := path.Base(tc.Path)
		if packageConfigs[b] && (b != "config" && b != "config.toml" || strings.Contains(tc.Path, "/.cargo/")) {
			hit = tc.Path
			break
		}
	}
	if hit == "" {
		return ""
	}
	if m := configDowngrade.FindString(e.F.Command); m != "" && !strings.Contains(m, "localhost") {
		return "the line writes " + homeRel(hit, e.F.Home) + " with " + strings.TrimSpace(m) + ": every later install trusts it"
	}
	return ""
}
