package policy

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/warden-dev/warden/internal/callfacts"
)

// homeDirRule denies any access (read or write) to paths under one of dirs
// (relative to the home directory).
func homeDirRule(id, desc string, dirs []string, catch, allow []string) Rule {
	return Rule{ID: id, Mode: Deny, Desc: desc, Catch: catch, Allow: allow,
		Match: func(e *Env) string {
			if len(e.F.Paths) == 0 {
				return ""
			}
			tightens := tighteningOnly(e)
			for _, p := range e.F.Paths {
				if !under(p.Path, e.F.Home) || p.Via == "chmod" && tightens || publicKeyPick(e, p) {
					continue // chmod 600 ~/.ssh/id_ed25519: the fix ssh asks for
				}
				for _, d := range dirs {
					if p.Op != OpWrite && p.Op != OpDelete && (listing[p.Via] && (d != ".gnupg" || p.Via == "cd" || p.Via == "pushd") || d == ".ssh" && sshPublic(p.Path) || d != ".ssh" && d != ".gnupg" && reducedOutput(e, p.Via) || printsPublicHalf(e, p.Via)) {
						continue // ls ~/.ssh, ls ~/.aws, cat ~/.ssh/id_rsa.pub: names, public keys, host settings
					}
					if underSub(p.Path, e.F.Home, d) {
						return fmt.Sprintf("%s %s %s, which holds credentials", p.Via, opVerb(p.Op), homeRel(p.Path, e.F.Home))
					}
				}
			}
			return ""
		}}
}

// tighteningOnly reports whether every chmod of the line only takes
// access away from group and others (600, go-rwx).
func tighteningOnly(e *Env) bool {
	cs := e.F.Cmds("chmod")
	for _, c := range cs {
		if !c.TightensMode() {
			return false
		}
	}
	return len(cs) > 0
}

// pathLink reports whether p is warden's link on PATH (~/.local/bin or
// ~/bin: warden install puts it there; /usr/local/bin, /usr/bin or
// Homebrew's when installed system-wide, and where $(which warden)
// stands); replacing it switches warden off.
func pathLink(p, home string) bool {
	d, b := path.Dir(p), path.Base(p)
	if b != "warden" && !strings.HasPrefix(b, "warden-") {
		return false
	}
	switch d {
	case "/usr/local/bin", "/usr/bin", "/bin", "/opt/homebrew/bin":
		return true
	}
	return home != "" && (d == path.Join(home, ".local/bin") || d == path.Join(home, "bin"))
}

// sshPublic reports whether a file in ~/.ssh holds no secret: public
// keys, the client's host settings and the known host keys.
func sshPublic(p string) bool {
	b := path.Base(p)
	return strings.HasSuffix(b, ".pub") || b == "config" || b == "known_hosts" || b == "known_hosts.old"
}

// viaRoot reports whether a command named via runs as root (under sudo,
// doas, run0 or pkexec).
func viaRoot(e *Env, via string) bool {
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if c.Name != via {
			continue
		}
		for _, w := range c.Wrappers {
			switch w {
			case "sudo", "doas", "run0", "pkexec", "su":
				return true
			}
		}
	}
	return false
}

// listing commands show names and metadata, not content.
var listing = map[string]bool{"ls": true, "stat": true, "tree": true, "du": true, "file": true, "test": true, "[": true, "exa": true, "eza": true, "lsd": true,
	// cd and pushd only enter the folder: what the line then reads
	// there is a path of its own, resolved from it (cd ~/.ssh && cat
	// id_rsa reads ~/.ssh/id_rsa)
	"cd": true, "pushd": true}

func opVerb(op string) string {
	switch op {
	case OpRead:
		return "reads"
	case OpWrite:
		return "writes"
	case OpDelete:
		return "deletes"
	}
	return "touches"
}

// etcSecretRead says how p, read or named, touches one of /etc's
// secrets: "" not at all (not a secret, or only its metadata: stat, ls
// -l, getfacl, a hash or a count), "print" printed on the terminal by a reader
// (cat, less, grep: it asks), "copy" anything else (cp, tar, an upload:
// denied).
func etcSecretRead(e *Env, p PathRef) string {
	if p.Op != OpRead && p.Op != OpArg {
		return "copy" // a write or delete: denied as system configuration first
	}
	if p.Via == "cd" || p.Via == "pushd" {
		return "" // cd /etc/ssl/private: the folder entered, nothing read
	}
	secret := false
	for _, s := range etcSecret {
		if p.Path == "/etc/ssh" && p.Op == OpRead && !viaRoot(e, p.Via) {
			continue // grep -rn X /etc/ssh as the user: only the public files are readable, the host keys are root's
		}
		if under(p.Path, s) && !callfacts.EtcSSHPublic(p.Path) && !under(p.Path, "/etc/ssh/sshd_config.d") && !under(p.Path, "/etc/ssh/ssh_config.d") {
			secret = true
		}
	}
	if !secret {
		// s28: a private key kept in a service's own directory
		// (/etc/haproxy/certs/site.pem, /etc/kubernetes/pki/apiserver.key,
		// /etc/letsencrypt/live/x/privkey.pem) printed; other programs
		// (openssl x509 -noout) only check it
		if etcKeyFile(p.Path) && etcPrinters[etcReader(e, p)] && len(e.F.Cmds(senders...)) == 0 && len(e.F.Redirects) == 0 {
			return "print"
		}
		return ""
	}
	r := etcReader(e, p)
	switch {
	case etcMetaReaders[r] && len(e.F.Cmds(senders...)) == 0:
		return ""
	case etcPrinters[r] && len(e.F.Cmds(senders...)) == 0 && len(e.F.Redirects) == 0:
		return "print"
	}
	return "copy"
}

// etcReader is the program that reads p: p's Via, or under sudo (Via
// sudo) the command sudo runs whose arguments name p.
func etcReader(e *Env, p PathRef) string {
	switch p.Via {
	case "sudo", "doas", "run0", "pkexec", "su":
	default:
		return p.Via
	}
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if len(c.Wrappers) == 0 || c.Wrappers[len(c.Wrappers)-1] != p.Via {
			continue
		}
		for _, a := range c.Args {
			if a != "" && !strings.HasPrefix(a, "-") && path.Base(path.Clean(a)) == path.Base(p.Path) {
				return c.Name
			}
		}
	}
	return p.Via
}

// etcMetaReaders show a file's metadata, a count or a hash, not its
// content; etcPrinters print its content to the terminal.
var (
	etcMetaReaders = map[string]bool{"stat": true, "ls": true, "test": true, "[": true, "getfacl": true, "lsattr": true, "file": true, "wc": true,
		"sha256sum": true, "sha1sum": true, "sha512sum": true, "md5sum": true, "b2sum": true, "cksum": true, "du": true, "namei": true,
		"realpath": true, "readlink": true, "find": true, "tree": true, "exa": true, "eza": true}
	etcPrinters = map[string]bool{"cat": true, "less": true, "more": true, "head": true, "tail": true, "grep": true, "egrep": true, "fgrep": true,
		"rg": true, "awk": true, "sed": true, "strings": true, "xxd": true, "od": true, "hexdump": true, "bat": true, "nl": true, "tac": true,
		"cut": true, "sort": true, "openssl": true, "ssh-keygen": true, "diff": true, "view": true}
)

// credentialFiles are base names that hold secrets wherever they are.
var credentialFiles = map[string]bool{".netrc": true, "_netrc": true, ".git-credentials": true, ".pypirc": true,
	"credentials.json": true, "client_secret.json": true, "service-account.json": true, ".pgpass": true,
	"id_rsa": true, "id_ed25519": true, "id_ecdsa": true, "id_dsa": true, ".htpasswd": true, "secrets.yml": true, "secrets.yaml": true,
	"master.key": true, ".vault-token": true, // credentials.yml.enc is ciphertext
	"keystore.properties": true, "key.properties": true} // Android signing passwords

// etcKeyFile: a file under /etc named as a private key (*.key,
// privkey*.pem, *-key.pem, *private*), or a .pem bundle in a service's
// own directory, which holds the key beside the certificate (HAProxy's
// certs): the system trust stores and names of certificates, chains and
// public halves aside.
func etcKeyFile(p string) bool {
	if !strings.HasPrefix(p, "/etc/") {
		return false
	}
	for _, t := range []string{"/etc/ssl/certs", "/etc/pki/tls/certs", "/etc/pki/ca-trust", "/etc/ca-certificates", "/etc/pki/ca", "/etc/ssl/cert.pem"} {
		if under(p, t) {
			return false
		}
	}
	b := strings.ToLower(path.Base(p))
	for _, w := range []string{"pub", "cert", "chain", "ca", "crt", "csr", "trust", "bundle", "dhparam", "root"} {
		for _, part := range strings.FieldsFunc(strings.TrimSuffix(b, path.Ext(b)), func(r rune) bool { return r == '.' || r == '-' || r == '_' }) {
			if part == w || len(w) > 3 && strings.Contains(part, w) {
				return false
			}
		}
	}
	switch {
	case strings.HasSuffix(b, ".key") || strings.HasPrefix(b, "privkey") || strings.Contains(b, "private") || strings.HasSuffix(b, "-key.pem") || b == "key.pem":
		return true
	case strings.HasSuffix(b, ".pem"):
		return strings.Count(p, "/") >= 3 // /etc/<service>/…/x.pem, not /etc/x.pem
	}
	return false
}

var etcSecret = []string{"/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/sudoers.d", "/etc/ssh", "/etc/ssl/private", "/etc/security/opasswd"}

func pathsPack() Pack {
	return Pack{Name: "core.paths", Desc: "Blocked paths: ~/.ssh, ~/.aws, ~/.gnupg, cloud CLIs' credentials, /etc, credentials files, .env writes", Rules: []Rule{
		homeDirRule("core.paths:ssh", "Reads and writes of ~/.ssh", []string{".ssh"},
			[]string{"cat ~/.ssh/id_rsa", `{"tool_name":"Write","tool_input":{"file_path":"~/.ssh/config","content":"Host x"}}`, `{"tool_name":"Read","tool_input":{"file_path":"/home/dev/.ssh/id_ed25519"}}`, "echo key >> $HOME/.ssh/authorized_keys", "cp id.pub ~/.ssh/", "python3 -c \"open('/home/dev/.ssh/id_rsa').read()\"", "chmod 644 ~/.ssh/id_rsa"},
			[]string{"ls ~/.ssh", "cat ~/.ssh/id_rsa.pub", "cat ~/.ssh/config", "grep -A3 'Host prod' ~/.ssh/config", "ssh user@host", "cat ./ssh/config", "chmod 600 ~/.ssh/id_ed25519", "chmod go-rwx ~/.ssh", `{"tool_name":"Read","tool_input":{"file_path":"/home/dev/proj/docs/ssh.md"}}`, "git clone git@github.com:a/b.git", "echo ~/.ssh"}),
		homeDirRule("core.paths:cloud-credentials", "Reads and writes of cloud CLI credentials (~/.aws, ~/.config/gcloud, ~/.azure, ~/.kube, ~/.docker/config.json, Claude Code's own login)",
			[]string{".aws", ".config/gcloud", ".azure", ".kube/config", ".docker/config.json", ".config/gh/hosts.yml", ".terraform.d/credentials.tfrc.json", ".config/doctl", ".claude/.credentials.json"},
			[]string{"cat ~/.aws/credentials", "cat ~/.claude/.credentials.json", `{"tool_name":"Read","tool_input":{"file_path":"~/.config/gcloud/application_default_credentials.json"}}`, "cp creds ~/.aws/config", "less $HOME/.kube/config", `{"tool_name":"Edit","tool_input":{"file_path":"/home/dev/.azure/config","old_string":"a","new_string":"b"}}`},
			[]string{"aws s3 ls", "gcloud config list", "kubectl get pods", "cat ./aws/notes.md", "ls -la ~/.aws", "ls ~/.kube", "cat ~/.claude/settings.json"}),
		homeDirRule("core.paths:gnupg", "Reads and writes of ~/.gnupg", []string{".gnupg"},
			[]string{"ls ~/.gnupg", "cat ~/.gnupg/private-keys-v1.d/x.key", `{"tool_name":"Read","tool_input":{"file_path":"/home/dev/.gnupg/pubring.kbx"}}`, "rm -rf ~/.gnupg"},
			[]string{"gpg --verify file.sig", "echo gnupg", "cat docs/gnupg.md"}),
		{
			ID: "core.paths:etc", Mode: Deny,
			Desc: "Writes under /etc, and reads of its secrets (shadow, sudoers, ssh host keys, ssl private keys)",
			Match: func(e *Env) string {
				for _, p := range e.F.Paths {
					if !under(p.Path, "/etc") && !under(p.Path, "/private/etc") {
						continue
					}
					if p.Op == OpWrite || p.Op == OpDelete {
						if etcDryRun(e, p.Via) {
							continue // rsync -av --dry-run ./x/ /etc/x/: nothing is written
						}
						return fmt.Sprintf("%s %s %s (system configuration)", p.Via, opVerb(p.Op), p.Path)
					}
					if etcSecretRead(e, p) == "copy" {
						return fmt.Sprintf("%s %s %s (system secrets)", p.Via, opVerb(p.Op), p.Path)
					}
				}
				return ""
			},
			Catch: []string{"echo '1.2.3.4 x' >> /etc/hosts", "sudo tee /etc/resolv.conf < r", "sudo cp /etc/shadow /tmp/shadow.bak", "sudo tar czf /tmp/k.tgz /etc/ssl/private", `{"tool_name":"Write","tool_input":{"file_path":"/etc/profile","content":"x"}}`, "sed -i 's/a/b/' /etc/ssh/sshd_config", "rm /etc/passwd", "awk 'BEGIN{printf \"\" > \"/etc/hosts\"}'", "sudo tee -a /etc/sudoers.d/deploy < d"},
			Allow: []string{"cat /etc/os-release", "cat /etc/hosts", "grep PermitRootLogin /etc/ssh/sshd_config", "cat /etc/ssh/ssh_host_ed25519_key.pub", "grep -rn Port /etc/ssh/", "awk '{print $1}' /etc/hosts", `{"tool_name":"Read","tool_input":{"file_path":"/etc/nginx/nginx.conf"}}`, "ls /etc", "grep -r foo ./etc",
				"sudo stat /etc/shadow", "sudo ls -la /etc/ssl/private", "sudo sha256sum /etc/ssh/ssh_host_ed25519_key", "sudo cat /etc/sudoers.d/deploy", "sudo visudo -c", "cat /etc/shadow", "sudo cat /etc/sudoers"},
		},
		{
			// a secret printed to the terminal is read, not
			// destroyed or sent: it asks, as a secret read does elsewhere
			ID: "core.paths:etc-secret-print", Mode: Ask,
			Desc: "Reads of /etc's secrets printed to the terminal (cat /etc/shadow, sudo less /etc/ssl/private/x.key)",
			Match: func(e *Env) string {
				for _, p := range e.F.Paths {
					if (under(p.Path, "/etc") || under(p.Path, "/private/etc")) && (p.Op == OpRead || p.Op == OpArg) && etcSecretRead(e, p) == "print" {
						return fmt.Sprintf("%s prints %s (system secrets)", etcReader(e, p), p.Path)
					}
				}
				return ""
			},
			Catch: []string{"cat /etc/shadow", "cat /etc/ssh/ssh_host_rsa_key", "sudo grep -r BEGIN /etc/ssh", "doas grep -rn PRIVATE /etc/ssh/", "sudo less /etc/ssl/private/server.key", "sudo head /etc/gshadow", "sudo cat /etc/sudoers", "sudo cat /etc/sudoers.d/deploy",
				"sudo cat /etc/haproxy/certs/site.pem", "sudo cat /etc/kubernetes/pki/apiserver.key"},
			Allow: []string{"sudo stat /etc/shadow", "sudo ls -l /etc/sudoers.d", "sudo getfacl /etc/shadow", "sudo visudo -c", "cat /etc/hosts", "grep -rn Port /etc/ssh/",
				"cat /etc/kubernetes/pki/ca.crt", "openssl x509 -in /etc/haproxy/certs/site.pem -noout -enddate", "cat /etc/ssl/certs/ca-certificates.crt"},
		},
		{
			ID: "core.paths:credentials-files", Mode: Deny,
			Desc: "Reads and writes of credentials files (.netrc, .git-credentials, .pypirc, .pgpass, private keys, service-account JSON)",
			Match: func(e *Env) string {
				tightens := -1 // tighteningOnly, asked on first need
				for _, p := range e.F.Paths {
					// the name first: the exceptions below read the
					// line, and most paths are no credentials file
					b := path.Base(p.Path)
					if !credentialFiles[b] && !(b == ".npmrc" && under(p.Path, e.F.Home) && path.Dir(p.Path) == e.F.Home) {
						continue
					}
					if fixturePath(p.Path) || (p.Op == OpRead || p.Op == OpArg) && listing[p.Via] {
						continue // tests/fixtures/credentials.json, file ~/.ssh/id_rsa, ls -la ~/.pgpass: a test's fake, a file's type or its mode, never its content
					}
					if p.Via == "chmod" {
						if tightens < 0 {
							tightens = btoi(tighteningOnly(e))
						}
						if tightens == 1 {
							continue // chmod 600 deploy/id_rsa: access taken away, the content untouched
						}
					}
					if (p.Op == OpRead || p.Op == OpArg) && (nonSecretColumns(e, p.Via, p.Path) || reducedOutput(e, p.Via) || namesOnlyRead(e, p.Via) || columnsDownstream(e, p.Via, p.Path) || printsPublicHalf(e, p.Via) || tokenFileFedToAuth(e, p.Via)) {
						continue // awk -F: '{print $1":"$3}' ~/.pgpass, wc -l ~/.netrc: hosts, databases or a count, not the password
					}
					return fmt.Sprintf("%s %s %s, a credentials file", p.Via, opVerb(p.Op), homeRel(p.Path, e.F.Home))
				}
				return ""
			},
			Catch: []string{"cat ~/.netrc", "cat ~/.git-credentials", `{"tool_name":"Read","tool_input":{"file_path":"/home/dev/proj/config/credentials.json"}}`, "cat ~/.npmrc", "cat deploy/id_rsa", `{"tool_name":"Write","tool_input":{"file_path":"/home/dev/.pgpass","content":"x"}}`},
			Allow: []string{"cat .npmrc", "cat README.md", "git config credential.helper", "chmod 400 deploy/id_rsa", "awk -F: '{print $1\":\"$3}' ~/.pgpass", "ls -la ~/.pgpass ~/.ssh/", "cut -d: -f1-4 ~/.pgpass", "wc -l ~/.netrc", `{"tool_name":"Read","tool_input":{"file_path":"/home/dev/proj/credentials.go"}}`},
		},
		{
			ID: "core.paths:env-write", Mode: Deny,
			Desc: "Writes to .env files (.env, .env.local, .env.production…; .env.example and templates are fine)",
			Match: func(e *Env) string {
				for _, p := range writes(e.F) {
					if envFile(path.Base(p.Path)) && !envBackup(e.F, p) && !envFromTemplate(e, p) && !envLocalValues(e, p) && !testEnvShown(e, p) && !testEnvRemoved(e, p) {
						return fmt.Sprintf("%s %s %s, which holds environment secrets", p.Via, opVerb(p.Op), homeRel(p.Path, e.F.Home))
					}
				}
				return ""
			},
			Catch: []string{`{"tool_name":"Write","tool_input":{"file_path":"/home/dev/proj/.env","content":"A=1"}}`, "echo 'KEY=x' >> .env.local", `{"tool_name":"Edit","tool_input":{"file_path":".env.production","old_string":"a","new_string":"b"}}`, "cp secrets .env", "rm .env", "cp .env.example ~/.env", "echo 'API_URL=https://api.example.com' >> .env.local", "echo 'NODE_TLS_REJECT_UNAUTHORIZED=0' >> .env"},
			Allow: []string{`{"tool_name":"Write","tool_input":{"file_path":"/home/dev/proj/.env.example","content":"A="}}`, "cat .env", "cp .env .env.backup", `{"tool_name":"Read","tool_input":{"file_path":".env"}}`, "cp .env.example .env.sample", "grep API .env", "cp -n .env.example .env", "cp .env.example .env", "cp .env.sample ./.env", "echo 'PORT=3000' >> .env.local", "cat > .env.local <<EOF\nDATABASE_URL=postgres://postgres:postgres@localhost:5432/app_dev\nDEBUG=true\nEOF"},
		},
		otherAccountSSHRule(), // peers13
	}}
}

// envFromTemplate: cp from a template (.env.example, .env.sample,
// .env.template, .env.dist) into the project — the first step of most
// projects' set-up, with no secret in it — with cp -n, or when no .env is
// there yet to be overwritten (a .env on disk holds the user's secrets).
func envFromTemplate(e *Env, p PathRef) bool {
	if p.Via != "cp" {
		return false
	}
	for _, c := range e.F.Cmds("cp") {
		if len(c.Pos) != 2 {
			continue
		}
		if !c.Has("-n", "--no-clobber", "--update=none") && (!under(p.Path, e.F.Project) || fileExists(p.Path)) {
			continue
		}
		switch b := path.Base(c.Pos[0]); {
		case strings.HasSuffix(b, ".example"), strings.HasSuffix(b, ".sample"), strings.HasSuffix(b, ".template"), strings.HasSuffix(b, ".dist"), strings.HasSuffix(b, ".defaults"):
			return true
		}
	}
	return false
}

// envBackup reports whether p is written by cp of another env file (cp
// .env .env.backup): a copy, asked about as a secret read, not denied.
func envBackup(f *Facts, p PathRef) bool {
	if p.Via != "cp" && p.Via != "install" {
		return false
	}
	for _, q := range f.Paths {
		if q.Via == p.Via && q.Op == OpRead && envFile(path.Base(q.Path)) {
			return true
		}
	}
	return false
}

func envFile(b string) bool {
	if b == ".env*" || b == ".env.*" {
		return true // cat .env*: every environment file of the folder, .env itself among them
	}
	if b != ".env" && !strings.HasPrefix(b, ".env.") {
		return false
	}
	b = strings.TrimSuffix(b, "~") // an editor's or a merge's leftover of a template is a template: .env.example.orig, .env.sample~
	for _, left := range []string{".orig", ".rej", ".swp"} {
		b = strings.TrimSuffix(b, left)
	}
	for _, ok := range []string{".example", ".sample", ".template", ".dist", ".defaults", ".schema"} {
		if strings.HasSuffix(b, ok) {
			return false
		}
	}
	return true
}

// sensitiveKind says why a project file needs a confirmation, or "".
func sensitiveKind(p, project string) string {
	b := path.Base(p)
	rel := p
	if project != "" && under(p, project) {
		rel = strings.TrimPrefix(p[len(project):], "/")
	}
	switch {
	case strings.HasPrefix(rel, ".github/workflows/") || strings.HasPrefix(rel, ".circleci/") || strings.HasPrefix(rel, ".buildkite/") ||
		b == ".gitlab-ci.yml" || b == "Jenkinsfile" || b == "azure-pipelines.yml" || b == ".travis.yml" || b == "bitbucket-pipelines.yml" ||
		strings.HasPrefix(rel, ".ci/") || b == "cloudbuild.yaml" || b == ".drone.yml":
		return "CI configuration"
	case lockfiles[b]:
		return "a lockfile"
	case strings.HasSuffix(b, ".entitlements") || strings.HasSuffix(b, ".mobileprovision") || strings.HasSuffix(b, ".provisionprofile"):
		return "an entitlements/provisioning file"
	}
	return ""
}

// lockManagers are the programs that write each lockfile anew from its
// manifest: a lockfile deleted in a line that then runs its manager is
// regenerated, the everyday reset of a broken lock.
var lockManagers = map[string][]string{"package-lock.json": {"npm"}, "yarn.lock": {"yarn"}, "pnpm-lock.yaml": {"pnpm"},
	"bun.lockb": {"bun"}, "bun.lock": {"bun"}, "go.sum": {"go"}, "Cargo.lock": {"cargo"}, "poetry.lock": {"poetry"},
	"Pipfile.lock": {"pipenv"}, "uv.lock": {"uv"}, "Gemfile.lock": {"bundle", "bundler"}, "composer.lock": {"composer"},
	"mix.lock": {"mix"}, "flake.lock": {"nix"}, "Podfile.lock": {"pod"}, "packages.lock.json": {"dotnet"}, "gradle.lockfile": {"gradle", "gradlew", "./gradlew"}}

// lockRemade reports whether the call deletes lockfile p and runs the
// manager that writes it anew (rm yarn.lock && yarn, rm Podfile.lock && pod install).
func lockRemade(e *Env, p string) bool {
	for _, m := range lockManagers[path.Base(p)] {
		for _, c := range e.F.Cmds(m) {
			if len(c.Pos) == 0 || !slices.Contains([]string{"remove", "uninstall", "rm", "un", "deintegrate", "clean"}, c.Pos[0]) {
				return true
			}
		}
	}
	return false
}

var lockfiles = map[string]bool{"package-lock.json": true, "yarn.lock": true, "pnpm-lock.yaml": true, "bun.lockb": true, "bun.lock": true,
	"go.sum": true, "Cargo.lock": true, "poetry.lock": true, "Pipfile.lock": true, "uv.lock": true, "Gemfile.lock": true,
	"composer.lock": true, "mix.lock": true, "flake.lock": true, "Podfile.lock": true, "packages.lock.json": true, "gradle.lockfile": true}

func sensitivePack() Pack {
	return Pack{Name: "core.sensitive", Desc: "Sensitive project files (CI config, lockfiles, entitlements): ask once per session per file", Rules: []Rule{
		{
			ID: "core.sensitive:project-file", Mode: Ask, Once: true,
			Desc: "Edits to CI configuration, lockfiles and entitlements need a confirmation (once per session per file)",
			Match: func(e *Env) string {
				for _, p := range writes(e.F) {
					if k := sensitiveKind(p.Path, e.F.Project); k != "" {
						if p.Op == OpDelete && lockRemade(e, p.Path) {
							continue // rm Podfile.lock && pod install: the manager writes it anew
						}
						e.OnceKey = p.Path
						return fmt.Sprintf("%s %s %s, %s", p.Via, opVerb(p.Op), homeRel(p.Path, e.F.Home), k)
					}
				}
				return ""
			},
			Catch: []string{`{"tool_name":"Edit","tool_input":{"file_path":".github/workflows/ci.yml","old_string":"a","new_string":"b"}}`, `{"tool_name":"Write","tool_input":{"file_path":"/home/dev/proj/package-lock.json","content":"{}"}}`, "echo x >> go.sum", `{"tool_name":"Write","tool_input":{"file_path":"App/App.entitlements","content":"x"}}`, "rm yarn.lock", "sed -i 's/a/b/' .gitlab-ci.yml"},
			Allow: []string{"cat go.sum", `{"tool_name":"Read","tool_input":{"file_path":".github/workflows/ci.yml"}}`, "npm install", `{"tool_name":"Write","tool_input":{"file_path":"docs/ci.md","content":"x"}}`, "go mod tidy"},
		},
	}}
}

// claudeSettings reports whether p is a Claude Code settings file;
// configDir is the caller's CLAUDE_CONFIG_DIR.
func claudeSettings(p, configDir string) bool {
	b := path.Base(p)
	d := path.Base(path.Dir(p))
	if b == "managed-settings.json" {
		return true
	}
	return (b == "settings.json" || b == "settings.local.json") && (d == ".claude" || strings.Contains(p, "/ClaudeCode/") || configDir != "" && path.Dir(p) == path.Clean(configDir))
}

func hookScript(p string) bool { return strings.Contains(p, "/.claude/hooks/") }

// readOnlyCmds do not change the files they name.
var readOnlyCmds = map[string]bool{"ls": true, "cat": true, "stat": true, "du": true, "file": true, "head": true, "tail": true,
	"less": true, "more": true, "wc": true, "grep": true, "rg": true, "diff": true, "find": true, "tree": true, "bat": true, "jq": true, "Read": true, "Grep": true, "Glob": true, "LS": true,
	"readlink": true, "realpath": true, "sha256sum": true, "sha1sum": true, "sha512sum": true, "md5sum": true, "shasum": true, "b2sum": true, "cksum": true,
	"ldd": true, "nm": true, "objdump": true, "strings": true, "od": true, "hexdump": true}

func settingsHooks(content string) (any, any, bool) {
	var m map[string]any
	if json.Unmarshal([]byte(content), &m) != nil {
		return nil, nil, false
	}
	return m["hooks"], m["disableAllHooks"], true
}

func selfPack() Pack {
	return Pack{Name: "core.self", Desc: "Self-protection: Claude Code hook settings, warden's config, store, binary and keys, hook scripts, warden off typed by the model", Rules: append([]Rule{
		{
			ID: "core.self:settings-hooks", Mode: Deny,
			Desc: "Changes to the hooks or disableAllHooks of any Claude Code settings file",
			Match: func(e *Env) string {
				if e.F.Tool == "Bash" || e.F.Tool == "PowerShell" {
					for _, p := range writes(e.F) {
						if claudeSettings(p.Path, e.Opts.getenv("CLAUDE_CONFIG_DIR")) {
							return fmt.Sprintf("%s %s the Claude Code settings file %s from the shell (hooks could be changed)", p.Via, opVerb(p.Op), homeRel(p.Path, e.F.Home))
						}
						// the .claude directory itself moved or deleted takes its settings along
						if path.Base(p.Path) == ".claude" && (p.Op == OpDelete || p.Via == "mv" || p.Via == "ln") {
							return fmt.Sprintf("%s %s %s, the Claude Code settings directory (hooks with it)", p.Via, opVerb(p.Op), homeRel(p.Path, e.F.Home))
						}
					}
					return ""
				}
				if e.F.FilePath == "" || !claudeSettings(e.F.FilePath, e.Opts.getenv("CLAUDE_CONFIG_DIR")) {
					return ""
				}
				where := homeRel(e.F.FilePath, e.F.Home)
				switch e.F.Tool {
				case "Write":
					nh, nd, ok := settingsHooks(e.F.Content)
					if !ok {
						return "the new " + where + " is not valid JSON; its hooks could not be checked"
					}
					old, _ := os.ReadFile(e.F.FilePath)
					oh, od, _ := settingsHooks(string(old))
					if len(old) == 0 {
						oh, od = nil, nil
					}
					if !jsonEqual(nh, oh) || !jsonEqual(nd, od) {
						return "the write changes hooks or disableAllHooks in " + where
					}
				case "Edit", "MultiEdit":
					old, _ := e.F.Input["old_string"].(string)
					if strings.Contains(e.F.Content, "hooks") || strings.Contains(old, "hooks") || strings.Contains(e.F.Content, "disableAllHooks") || strings.Contains(e.F.Content, "warden") || strings.Contains(old, "warden") {
						return "the edit touches hooks in " + where
					}
				}
				return ""
			},
			Catch: []string{"mv ~/.claude ~/.claude.bak", "rm -rf .claude", `{"tool_name":"Write","tool_input":{"file_path":"~/.claude/settings.json","content":"{\"disableAllHooks\":true}"}}`, `{"tool_name":"Edit","tool_input":{"file_path":"/home/dev/proj/.claude/settings.local.json","old_string":"\"hooks\": {","new_string":"\"hooks_off\": {"}}`, "echo '{}' > ~/.claude/settings.json", "sed -i 's/warden/true/' .claude/settings.json", "rm ~/.claude/settings.json"},
			Allow: []string{`{"tool_name":"Write","tool_input":{"file_path":"~/.claude/settings.json","content":"{\"model\":\"opus\"}"}}`, "cat ~/.claude/settings.json", `{"tool_name":"Edit","tool_input":{"file_path":"/home/dev/proj/.claude/settings.json","old_string":"\"model\": \"a\"","new_string":"\"model\": \"b\""}}`, `{"tool_name":"Write","tool_input":{"file_path":"/home/dev/proj/settings.json","content":"{\"hooks\":{}}"}}`},
		},
		{
			ID: "core.self:warden-files", Mode: Deny,
			Desc: "Changes to warden's own files: config, rules, store, binary, keys, its link on PATH (WARDEN_HOME, <project>/.warden/config.toml and rules/, ~/.local/bin/warden)",
			Match: func(e *Env) string {
				// joined at the first path the call changes, and kept for
				// the next call from the same place (wardenPlaces)
				var w *wardenPlaces
				for _, p := range e.F.Paths {
					if p.Op == OpRead || readOnlyCmds[p.Via] {
						continue
					}
					if w == nil {
						w = wardenPlacesFor(e.Opts.WardenHome, e.F.Home, e.F.Project)
					}
					home, pw, pwConfig, pwRules, pwTask, pwTmp, homeTmp := w.home, w.pw, w.pwConfig, w.pwRules, w.pwTask, w.pwTmp, w.homeTmp
					proj := e.F.Project != "" && (p.Path == pwConfig || under(p.Path, pwRules) ||
						p.Path == pwTask ||
						// the project's .warden/ itself: moved, linked over or deleted
						(p.Op == OpDelete || p.Via == "ln" || p.Via == "mv" || p.Via == "rm") && under(p.Path, pw) && !under(p.Path, pwTmp))
					if under(p.Path, home) && !under(p.Path, homeTmp) && !agentWorktreeWork(p.Path, home) || proj || pathLink(p.Path, e.F.Home) {
						return fmt.Sprintf("%s %s %s, which belongs to warden", p.Via, opVerb(p.Op), homeRel(p.Path, e.F.Home))
					}
				}
				return ""
			},
			Catch: []string{"ln -sf /bin/true ~/.local/bin/warden", "rm ~/bin/warden", "cp /tmp/fake $(which warden)", "mv .warden /tmp/w", "ln -sfn /tmp/empty .warden", "rm -rf .warden", "python3 -c \"open('.warden/config.toml','w').write('')\"", `{"tool_name":"Write","tool_input":{"file_path":"~/.warden/config.toml","content":"x"}}`, "rm -rf ~/.warden", "sqlite3 ~/.warden/warden.db 'delete from events'", "echo 'x' > .warden/config.toml", "cp /tmp/w ~/.warden/bin/warden", "chmod 777 ~/.warden/state.key",
				`echo '{"allow":["push"]}' > ~/.warden/worktrees/app/t1/.warden/task.json`, "rm -rf ~/.warden/worktrees/app"},
			Allow: []string{"cat ~/.warden/config.toml", "ls ~/.warden", `{"tool_name":"Read","tool_input":{"file_path":"/home/dev/.warden/config.toml"}}`, "warden log -n 5", `{"tool_name":"Write","tool_input":{"file_path":"/home/dev/proj/.warden/state/notes.json","content":"{}"}}`,
				`{"tool_name":"Write","tool_input":{"file_path":"/home/dev/.warden/worktrees/app/t1/main.go","content":"package main"}}`},
		},
		{
			ID: "core.self:git-clean-warden", Mode: Ask, Tools: shellTools, Cmds: []string{"git"},
			Desc: "git clean -x (ignored files too) deletes the project's .warden/ (git-ignored) unless it is excluded",
			Match: func(e *Env) string {
				return first(e.F.Cmds("git"), func(c *Cmd) string {
					if sub(c) != "clean" || !c.Has("-x") || !c.Has("-f", "--force") || c.Has("-n", "--dry-run") {
						return ""
					}
					for _, a := range c.Args {
						if strings.Contains(a, ".warden") {
							return ""
						}
					}
					if subdirSpecs(c.Pos[1:]) {
						return "" // git clean -fdx -- .cache/ logs/: only under those
					}
					return "git clean -x deletes ignored files, the project's .warden/ (warden's state and rules) among them; add -e .warden"
				})
			},
			Catch: []string{"git clean -fdx", "git clean -xfd", "git clean -f -x", "bash -c 'git clean -ffdx'"},
			Allow: []string{"git clean -fd", "git clean -fdx -e .warden", "git clean -ndx", "git status", "git clean -fdx -- .cache/ logs/"},
		},
		{
			ID: "core.self:hook-scripts", Mode: Deny,
			Desc: "Removing, rewriting or chmod -x of Claude Code hook scripts (.claude/hooks/), or a chmod that takes the owner's read or search permission from the hooks directory or a .claude directory",
			Match: func(e *Env) string {
				for _, c := range e.F.Cmds("chmod") {
					// hookchmod.go: the owner loses read or execute on a
					// hook script, the hooks directory or a .claude directory
					if a, script := hookChmod(e, c); script {
						return "chmod makes the hook script " + a + " non-executable"
					} else if a != "" {
						return "chmod takes the owner's read or search permission from " + a + ": Claude Code can no longer read its hooks"
					}
				}
				for _, p := range writes(e.F) {
					if (hookScript(p.Path) || p.Op == OpDelete && strings.HasSuffix(p.Path, "/.claude/hooks")) && p.Via != "chmod" {
						// the hooks directory itself moved or deleted takes every script along
						return fmt.Sprintf("%s %s the hook script %s", p.Via, opVerb(p.Op), homeRel(p.Path, e.F.Home))
					}
				}
				return ""
			},
			Catch: []string{"chmod -x ~/.claude/hooks/guard.sh", "rm .claude/hooks/pre.py", "chmod a-x /home/dev/proj/.claude/hooks/x.sh", `{"tool_name":"Write","tool_input":{"file_path":"/home/dev/.claude/hooks/guard.sh","content":"exit 0"}}`, "mv ~/.claude/hooks/a.sh /tmp/", "mv ~/.claude/hooks ~/.claude/hooks.disabled",
				"chmod -R 000 ~/.claude/hooks", "chmod a-rwx ~/.claude", "chmod -R -x .claude/hooks", "chmod u=rw ~/.claude/hooks/guard.sh"},
			Allow: []string{"cat ~/.claude/hooks/guard.sh", "mkdir -p .claude/hooks", "cp -r .claude/hooks /tmp/hooks-backup", "chmod +x ~/.claude/hooks/guard.sh", "chmod -x ./scripts/build.sh", "ls .claude/hooks",
				"chmod 700 ~/.claude", "chmod -R go-rwx ~/.claude", "chmod -R 755 .claude/hooks"},
		},
		{
			ID: "core.self:warden-off", Mode: Deny, Tools: shellTools, Cmds: []string{"warden", "pace-maker", "pkill", "killall", "systemctl", "launchctl"},
			Desc: "The model switching warden off (warden off, uninstall, safemode off, breaker reset, killing its keeper, stopping its service): only the user may",
			Match: func(e *Env) string {
				return first(e.F.Cmds("warden", "pace-maker", "pkill", "killall", "systemctl", "launchctl"), func(c *Cmd) string {
					if c.Name == "pkill" || c.Name == "killall" {
						for _, p := range c.Pos {
							if strings.Contains(p, "warden") {
								return c.Name + " stops warden's processes"
							}
						}
						return ""
					}
					if c.Name == "systemctl" || c.Name == "launchctl" {
						switch sub(c) {
						case "stop", "disable", "mask", "kill", "unload", "remove", "bootout":
							for _, p := range c.Pos[1:] {
								if strings.Contains(p, "warden") {
									return c.Name + " " + sub(c) + " stops warden's service " + p
								}
							}
						}
						return ""
					}
					if w := c.WardenToggle(); w != "" {
						return "`" + w + "` may only be typed by the user"
					}
					return ""
				})
			},
			Catch: []string{"systemctl --user disable --now warden.service", "launchctl bootout gui/501/dev.warden.serve", "pkill -f warden-core", "warden off", "~/.warden/bin/warden off", "warden uninstall --scope user", "bash -c 'warden safemode off'", "warden breaker reset", "$(which warden) off", "\"$(command -v warden)\" disable", "W=$(which warden); $W safemode off", "$(which warden 2>/dev/null || echo ~/.local/bin/warden) off"},
			Allow: []string{"warden status", "warden log -n 20", "echo 'warden off'", "warden policy explain -- ls", "systemctl --user status warden.service", "systemctl stop nginx", "$(which warden) status", "ls -l $(which warden)"},
		},
	}, agentFilesRule(), hookDerivedRule())}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// wardenPlaces are the paths core.self:warden-files compares a changed
// path with, joined from warden's home, the user's home and the project.
type wardenPlaces struct {
	key                                                 [3]string // wardenHome, home, project
	home, pw, pwConfig, pwRules, pwTask, pwTmp, homeTmp string
}

// lastWardenPlaces keeps the places of the last call: a process judges
// calls from one home and project, and joining them anew took seven
// allocations for every call that writes.
var lastWardenPlaces atomic.Pointer[wardenPlaces]

func wardenPlacesFor(wardenHome, userHome, project string) *wardenPlaces {
	key := [3]string{wardenHome, userHome, project}
	if w := lastWardenPlaces.Load(); w != nil && w.key == key {
		return w
	}
	w := &wardenPlaces{key: key, home: wardenHome}
	if w.home == "" && userHome != "" {
		w.home = path.Join(userHome, ".warden")
	}
	w.pw = path.Join(project, ".warden")
	w.pwConfig, w.pwRules, w.pwTask, w.pwTmp = path.Join(w.pw, "config.toml"), path.Join(w.pw, "rules"), path.Join(w.pw, "task.json"), path.Join(w.pw, "tmp")
	w.homeTmp = path.Join(w.home, "tmp")
	lastWardenPlaces.Store(w)
	return w
}
