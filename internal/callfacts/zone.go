package callfacts

import (
	"path"
	"strings"
	"sync"
)

// Zone is the kind of place a path is in: what losing or changing it
// costs. The verdict table (policy) judges an effect by the zone of its
// target, so a new program or a new disguise that reaches a known effect
// on a known zone needs no rule of its own.
type Zone string

// Zones, in the order the verdict table shows them.
const (
	ZoneProject     Zone = "project"     // the project or worktree, below its root
	ZoneRepo        Zone = "repo"        // the project root itself and its .git
	ZoneTemp        Zone = "temp"        // scratch directories
	ZoneCache       Zone = "cache"       // caches under home, rebuilt on demand
	ZoneHomeData    Zone = "home-data"   // the user's own folders and files under home
	ZoneHomeConfig  Zone = "home-config" // dot-dirs and dot-files in home
	ZoneCredentials Zone = "credentials" // keys, tokens, keychains
	ZoneSystem      Zone = "system"      // the operating system's directories
	ZoneWarden      Zone = "warden"      // warden's own files and its hooks
	ZoneAgent       Zone = "agent"       // the agent's own config (~/.claude, .claude/)
	ZoneShared      Zone = "shared"      // network and removable mounts others use: /mnt/…, /media, /net, /nfs, /shared, /Volumes
	ZoneElsewhere   Zone = "elsewhere"   // outside home, the project and the system dirs
	ZoneUnknown     Zone = "unknown"     // the line does not show where: "$DIR", xargs' input
	ZoneUnknownSub  Zone = "unknown-sub" // a named build or scratch path under an unknown one: "$BUILD_DIR/out"
)

// Zones lists every zone in table order.
func Zones() []Zone {
	return []Zone{ZoneProject, ZoneRepo, ZoneTemp, ZoneCache, ZoneHomeData, ZoneHomeConfig,
		ZoneCredentials, ZoneSystem, ZoneWarden, ZoneAgent, ZoneShared, ZoneElsewhere, ZoneUnknown, ZoneUnknownSub}
}

// homeCredentials hold keys and tokens (relative to home).
var homeCredentials = []string{".ssh", ".aws", ".gnupg", ".config/gh", ".kube/config", ".docker/config.json",
	".netrc", "_netrc", ".git-credentials", ".pgpass", ".pypirc", ".npmrc", ".vault-token", ".config/gcloud",
	".azure", ".terraform.d/credentials.tfrc.json", ".config/doctl", ".password-store", ".local/share/keyrings",
	"Library/Keychains", ".config/op", ".op", ".cargo/credentials", ".cargo/credentials.toml", ".gem/credentials",
	".config/hub", ".m2/settings-security.xml", ".config/sops", ".authinfo", ".authinfo.gpg",
	".claude/.credentials.json", ".bitcoin", ".electrum", ".ethereum/keystore", ".monero", "Monero/wallets", ".config/Exodus", "Library/Application Support/Exodus",
	"Library/Application Support/Bitcoin", ".config/solana", ".local/share/io.parity.ethereum", ".android/debug.keystore", ".config/rclone/rclone.conf",
	".s3cfg", ".boto", ".config/hub", ".config/glab-cli", ".config/netlify", ".vercel", ".fly/config.yml", ".config/heroku", ".netrc.gpg",
	".snowsql/config", ".config/snowflake/connections.toml", ".dbt/profiles.yml", ".databrickscfg", ".config/NuGet/NuGet.Config",
	".nuget/NuGet/NuGet.Config", "AppData/Roaming/NuGet/NuGet.Config", ".config/configstore/firebase-tools.json",
	".cache/huggingface/token", ".cache/huggingface/stored_tokens", ".huggingface/token", ".kaggle/kaggle.json", ".irods/.irodsA", ".nextflow/secrets",
	".config/ngrok/ngrok.yml", ".ngrok2/ngrok.yml", ".config/gh-copilot", ".config/github-copilot/hosts.json", ".config/github-copilot/apps.json",
	".terraformrc", ".my.cnf", ".mylogin.cnf", ".pulumi/credentials.json", ".oci", ".config/hcloud/cli.toml", ".config/linode-cli", ".cloudflared",
	".wrangler/config", ".config/.wrangler/config", ".supabase/access-token", ".railway/config.json", ".config/stripe/config.toml", ".twilio-cli/config.json",
	".config/composer/auth.json", ".composer/auth.json",
	"AppData/Roaming/Microsoft/UserSecrets", ".microsoft/usersecrets", ".Renviron", ".splunkrc", ".android/adbkey", // .NET user secrets, R's and Splunk SDK's keys, adb's device key
	".influxdbv2/configs", ".influx/configs", // the influx CLI's saved tokens
	".p4tickets", ".p4enviro", ".subversion/auth", ".lftp/bookmarks", ".local/share/lftp/bookmarks", ".config/filezilla", ".filezilla",
	".ncftp/bookmarks", ".config/syncthing/key.pem", ".local/state/syncthing/key.pem", ".plastic4", // version control tickets, FTP bookmarks, a sync device's key
	".foundry/keystores", ".near-credentials", ".sui/sui_config/sui.keystore", ".aptos/config.yaml", ".brownie/accounts", ".starknet_accounts", ".starkli-wallets",
	".julia/servers"} // Claude Code's own login: a credential before it is the agent's config

// credentialNames hold secrets wherever they are.
var credentialNames = map[string]bool{"id_rsa": true, "id_ed25519": true, "id_ecdsa": true, "id_dsa": true,
	".netrc": true, ".git-credentials": true, ".pgpass": true, "credentials.json": true, "service-account.json": true,
	"client_secret.json": true, ".vault-token": true, "master.key": true, ".p4tickets": true, "p4tickets.txt": true}

// systemSecrets are the system's own credentials.
var systemSecrets = []string{"/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/sudoers.d", "/etc/ssh",
	"/etc/ssl/private", "/private/etc/shadow", "/private/etc/sudoers",
	"/etc/wireguard", "/etc/ipsec.secrets", "/etc/NetworkManager/system-connections", "/etc/letsencrypt/live", "/etc/letsencrypt/archive", "/etc/krb5.keytab"}

// homeCaches are rebuilt by the tools that fill them (relative to home).
var homeCaches = []string{".cache", "Library/Caches", "Library/Developer/Xcode/DerivedData", ".gradle/wrapper/dists", ".npm", ".pnpm-store", ".yarn/cache", ".gradle/caches",
	".m2/repository", "go/pkg/mod", ".cargo/registry", ".cargo/git", ".rustup/downloads", ".bun/install/cache",
	".nuget/packages", ".ivy2/cache", ".sbt/boot", ".pub-cache", ".deno", ".local/share/pnpm/store",
	// package managers' downloads and installed archives, fetched again
	// by the next install (mix archive.install, hex, composer, conda,
	// cabal, opam, node-gyp headers, terraform's plugin cache, ccache)
	".mix/archives", ".hex/packages", ".composer/cache", ".bundle/cache", ".conda/pkgs", ".cabal/packages",
	".opam/download-cache", ".node-gyp", ".terraform.d/plugin-cache", ".ccache", ".yarn/berry/cache", ".nvm/.cache",
	".gradle/daemon", ".android/build-cache", ".julia/compiled", ".cpanm/work", ".kube/cache", ".kube/http-cache"}

// homeWarden are warden's files and the files that hold its hooks
// (relative to home).
var homeWarden = []string{".warden", ".config/warden", ".claude/settings.json", ".local/bin/warden",
	"bin/warden", ".local/share/warden"}

// systemDirs belong to the operating system; / itself is system too.
var systemDirs = []string{"/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/boot",
	"/var", "/opt", "/sys", "/proc", "/dev", "/run", "/root", "/srv", "/snap", "/System", "/Library",
	"/Applications", "/private", "/nix", "/c/Windows", "/c/Program Files", "/home", "/Users"}

// tempDirs are scratch space.
var tempDirs = []string{"/tmp", "/var/tmp", "/dev/shm", "/private/tmp", "/private/var/folders", "/var/folders"}

// ZoneOf puts a normalized path (NormPath) in its zone, home and project
// being the user's home and the project directory. It reads no disk: the
// zone follows from what the line says.
func ZoneOf(p, home, project string) Zone {
	if hasVarMark(p) {
		p = knownVar(p, home)
	}
	switch {
	case p == "":
		return ZoneUnknown
	case hasVarMark(p) && !UserScratch(p, home):
		return unknownZone(p)
	case agentWorktree(project, home) && within(p, project):
		// A task's agent works in a worktree warden keeps under its own
		// home: there, its files are the project's, not warden's.
		return worktreeZone(p, home, project)
	case warden(p, home):
		return ZoneWarden
	case credential(p, home):
		return ZoneCredentials
	case agentConfig(p, home, project):
		return ZoneAgent
	case project != "" && project != home && project != "/" && within(p, project):
		return projectZone(p, project)
	case home != "" && home != "/" && within(p, home):
		return homeZone(p, home)
	case withinAny(p, "", tempDirs) || UserScratch(p, home) || mountScratch(p):
		return ZoneTemp
	case SharedMount(p, home):
		return ZoneShared
	case p == "/" || strings.HasPrefix(p, "/*") || withinAny(p, "", systemDirs):
		return ZoneSystem
	}
	return windowsZone(p)
}

// windowsZone places a Windows path (C:\Users\dev\Documents, read as
// /c/Users/dev/Documents): a user's profile is a home, judged like one;
// a drive's root, Windows and Program Files are the system's.
func windowsZone(p string) Zone {
	if len(p) >= 6 && strings.HasPrefix(p, "/mnt/") && isLetter(p[5]) && (len(p) == 6 || p[6] == '/') {
		p = p[4:] // WSL mounts drive C: at /mnt/c: /mnt/c/Users/dev is the same profile
	}
	if len(p) < 2 || p[0] != '/' || !isLetter(p[1]) || len(p) > 2 && p[2] != '/' {
		return ZoneElsewhere
	}
	parts := strings.SplitN(p, "/", 5) // "", c, Users, dev, rest
	if len(parts) == 2 || len(parts) == 3 && parts[2] == "" {
		return ZoneSystem // C:\
	}
	switch top := strings.ToLower(parts[2]); {
	case top == "users" && len(parts) >= 4 && parts[3] != "" && !strings.EqualFold(parts[3], "public"):
		profile := strings.Join(parts[:4], "/")
		if credential(p, profile) {
			return ZoneCredentials
		}
		if len(parts) == 5 && strings.HasPrefix(strings.ToLower(parts[4]), "appdata") {
			return ZoneHomeConfig
		}
		return homeZone(p, profile)
	case top == "windows" || strings.HasPrefix(top, "program files") || top == "programdata":
		return ZoneSystem
	}
	return ZoneElsewhere
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// wellKnownVars hold places every shell agrees on, relative to home
// when they start without a slash.
var wellKnownVars = map[string]string{"TMPDIR": "/tmp", "TMP": "/tmp", "TEMP": "/tmp", "XDG_CACHE_HOME": ".cache",
	"XDG_CONFIG_HOME": ".config", "XDG_DATA_HOME": ".local/share", "XDG_STATE_HOME": ".local/state",
	"GOPATH": "go", "GOCACHE": ".cache/go-build", "GOMODCACHE": "go/pkg/mod", "CARGO_HOME": ".cargo", "RUSTUP_HOME": ".rustup"}

// knownVar replaces a well-known variable that starts the target
// ($TMPDIR/x, made "<cwd>/$TMPDIR/x" by NormPath) with its usual value.
func knownVar(p, home string) string {
	i := strings.IndexByte(p, '$')
	if i <= 0 || p[i-1] != '/' {
		return p
	}
	name, rest := p[i+1:], ""
	if strings.HasPrefix(name, "{") {
		name, rest, _ = strings.Cut(name[1:], "}")
	} else if j := strings.IndexByte(name, '/'); j >= 0 {
		name, rest = name[:j], name[j:]
	}
	v, ok := wellKnownVars[name]
	if !ok {
		return p
	}
	if !strings.HasPrefix(v, "/") {
		v = home + "/" + v
	}
	return path.Clean(v + rest)
}

// unknownZone tells a target the line does not show at all ("$DIR",
// "$DIR/*": it may be home or /) from a named build or scratch path under
// one ("$BUILD_DIR/out", "$ROOT/dist"), which is neither. A named path
// under a variable whose names say nothing of scratch ("$DATA_DIR/interim")
// is as unknown as the variable (zone_unknownvar.go).
func unknownZone(p string) Zone {
	last := path.Base(strings.TrimSuffix(p, "/*"))
	if strings.ContainsAny(last, "$`") || last == "." || last == ".." || strings.Contains(p, "/../") || !scratchUnder(p) {
		return ZoneUnknown
	}
	return ZoneUnknownSub
}

// homeZone is the zone of p under home: caches, dot-files, or the user's
// data (any folder, home itself included).
func homeZone(p, home string) Zone {
	rel := strings.TrimPrefix(strings.TrimPrefix(p, home), "/")
	switch {
	case withinAny(p, home, homeCaches):
		return ZoneCache
	case strings.HasPrefix(rel, ".") && !strings.HasPrefix(rel, "./"):
		if toolScratch(rel) {
			return ZoneCache
		}
		if homeDataDot(rel) {
			return ZoneHomeData
		}
		return ZoneHomeConfig
	case appDir(rel) && toolScratch(rel):
		return ZoneCache // ~/Library/Application Support/Code/Cache, ~/AppData/Local/Temp
	}
	return ZoneHomeData
}

// homeDataDot: rel lies in a dot-directory that holds the user's
// programs and files rather than settings — ~/.local/bin (commands the
// user installed) and the desktop's trash: a file written there is
// not a setting changed (a write to home config asks; to home data it
// does not).
func homeDataDot(rel string) bool {
	for _, d := range []string{".local/bin", ".local/share/Trash"} {
		if rel == d || strings.HasPrefix(rel, d+"/") {
			return true
		}
	}
	return false
}

// appDir: rel lies in the folders where macOS and Windows keep each
// application's own files (~/Library/Application Support/<app>,
// ~/Library/<app>, ~/AppData/Local/<app>), the dot-directories of those
// systems; iCloud Drive's folder under ~/Library is the user's data.
func appDir(rel string) bool {
	return strings.HasPrefix(rel, "Library/") && !strings.HasPrefix(rel, "Library/Mobile Documents") ||
		strings.HasPrefix(rel, "AppData/")
}

// toolScratch: rel (a path under home in a dot-directory: ~/.ros/log,
// ~/.local/share/godot/shader_cache, ~/.config/Code/CachedData) lies in
// one of the tool's scratch directories (scratchdirs.txt) below the
// dot-directory itself: what the tool rewrites as it runs, not the user's
// settings or the tool's data.
func toolScratch(rel string) bool {
	parts := strings.Split(rel, "/")
	for _, d := range parts[1:] {
		if ScratchDir(d) {
			return true
		}
	}
	return false
}

// projectZone is the zone of p inside project: the project root itself,
// everything in it at once, and its .git are the repository.
func projectZone(p, project string) Zone {
	if p == project || isJoin(p, project, "/*") || withinSub(p, project, "/.git") {
		return ZoneRepo
	}
	return ZoneProject
}

// worktreeZone is the zone of p inside an agent's worktree: its agent
// config and credentials are still those, the rest the project's.
func worktreeZone(p, home, project string) Zone {
	switch {
	case credential(p, home):
		return ZoneCredentials
	case agentConfig(p, home, project):
		return ZoneAgent
	}
	return projectZone(p, project)
}

// agentWorktree reports whether project is a task agent's worktree, which
// warden keeps under its home (internal/agent: ~/.warden/worktrees).
func agentWorktree(project, home string) bool {
	rest, ok := strings.CutPrefix(project, home)
	return project != "" && home != "" && ok && strings.HasPrefix(rest, "/.warden/worktrees/")
}

func warden(p, home string) bool {
	return home != "" && withinAny(p, home, homeWarden) || strings.HasPrefix(path.Base(p), "warden") &&
		(path.Dir(p) == "/usr/local/bin" || path.Dir(p) == "/usr/bin" || path.Dir(p) == "/opt/homebrew/bin")
}

func agentConfig(p, home, project string) bool {
	return home != "" && (withinSub(p, home, "/.claude") || isJoin(p, home, "/.claude.json")) ||
		project != "" && withinSub(p, project, "/.claude")
}

func credential(p, home string) bool {
	// the exception is read only for a credential's name or place: most
	// paths ZoneOf is asked about are none
	return (credentialNames[path.Base(p)] || home != "" && homeCredential(p, home) || systemSecret(p)) &&
		!PublicKeyMaterial(p) // a certificate or a public key, wherever it is kept
}

// systemSecret: p is one of systemSecrets or inside one. Every entry lies
// under /etc or /private/etc (TestSystemSecretsUnderEtc), so a path
// elsewhere, most of those ZoneOf is asked about, is not compared with
// each.
func systemSecret(p string) bool {
	return (strings.HasPrefix(p, "/etc/") || strings.HasPrefix(p, "/private/etc/")) && withinAny(p, "", systemSecrets)
}

// EtcSSHPublic reports whether p is one of /etc/ssh's public files: the
// daemon's and the client's settings (sshd_config, ssh_config and their
// .d folders), moduli, and the host keys' .pub halves. The folder itself
// and the private host keys stay secrets.
func EtcSSHPublic(p string) bool {
	rel, ok := strings.CutPrefix(p, "/etc/ssh/")
	if !ok {
		rel, ok = strings.CutPrefix(p, "/private/etc/ssh/")
	}
	if !ok || strings.Contains(rel, "..") {
		return false
	}
	switch {
	case rel == "sshd_config" || rel == "ssh_config" || rel == "moduli" || strings.HasSuffix(rel, ".pub"):
		return true
	case strings.HasPrefix(rel, "sshd_config.d/") || strings.HasPrefix(rel, "ssh_config.d/"):
		return !strings.ContainsAny(rel, "*?[")
	}
	return false
}

// IsCredential reports whether p (normalized) is a credentials file or
// directory by name or place: ZoneOf's credentials test alone, for rules
// that ask only that.
func IsCredential(p, home string) bool { return credential(p, home) }

// homeCredentialsByTop indexes homeCredentials by their first path
// element, so a path under home is compared with the few entries of its
// own top directory, not the whole list (ZoneOf runs for every target).
var homeCredentialsByTop = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for _, c := range homeCredentials {
		top, _, _ := strings.Cut(c, "/")
		m[top] = append(m[top], c)
	}
	return m
})

// homeCredential: p is one of homeCredentials (or inside one) under home.
func homeCredential(p, home string) bool {
	if len(p) <= len(home)+1 || !strings.HasPrefix(p, home) || p[len(home)] != '/' {
		return false
	}
	rel := p[len(home)+1:]
	top, _, _ := strings.Cut(rel, "/")
	for _, d := range homeCredentialsByTop()[top] {
		if within(rel, d) {
			return true
		}
	}
	return false
}

// within reports whether p is dir or inside it.
func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, dir) && len(p) > len(dir) && p[len(dir)] == '/'
}

// withinSub is within(p, base+sub), without building base+sub: ZoneOf
// asks it of every path a line names, and each join allocated.
func withinSub(p, base, sub string) bool {
	rest, ok := strings.CutPrefix(p, base)
	return ok && within(rest, sub)
}

// isJoin is p == base+sub, without building base+sub.
func isJoin(p, base, sub string) bool {
	rest, ok := strings.CutPrefix(p, base)
	return ok && rest == sub
}

// hasVarMark reports whether p holds a "$" or a "`" (strings.ContainsAny
// builds its set of bytes on every call).
func hasVarMark(p string) bool {
	return strings.IndexByte(p, '$') >= 0 || strings.IndexByte(p, '`') >= 0
}

// withinAny reports whether p is inside base joined with one of dirs.
func withinAny(p, base string, dirs []string) bool {
	if base != "" {
		// p relative to base, without building base/d for every d
		if len(p) <= len(base)+1 || !strings.HasPrefix(p, base) || p[len(base)] != '/' {
			return false
		}
		p = p[len(base)+1:]
	}
	for _, d := range dirs {
		if within(p, d) {
			return true
		}
	}
	return false
}

// HoldsCredentials reports whether the directory p (normalized) holds a
// credentials file of home: ~/.kube holds ~/.kube/config, home holds all.
// A copy of p sends them along.
func HoldsCredentials(p, home string) bool {
	if home == "" || p != home && !strings.HasPrefix(p, home+"/") {
		return false
	}
	for _, c := range homeCredentials {
		if full := home + "/" + c; strings.HasPrefix(full, p+"/") {
			return true
		}
	}
	return false
}

// CacheOnly reports whether every home path text names is a cache
// (~/.cache/…, Library/Caches): deleting those loses nothing.
func CacheOnly(text string) bool {
	if !strings.Contains(text, "/.cache") && !strings.Contains(text, "Library/Caches") {
		return false
	}
	rest := strings.NewReplacer("~/.cache", "", "/.cache", "", "~/Library/Caches", "", "Library/Caches", "").Replace(text)
	return !strings.Contains(rest, "~/") && !strings.Contains(rest, "/home/")
}

// sharedMountRoots are where network shares and drives others use are
// mounted: /mnt/nas, /media/team, /net/host, /nfs, /shared,
// /Volumes/Team on macOS. /srv/share… is one too (sharedSrv).
var sharedMountRoots = map[string]bool{"mnt": true, "media": true, "net": true, "nfs": true, "shared": true, "Volumes": true}

// mountScratchNames are a mount's own scratch folders (/mnt/scratch,
// /mnt/tmp, Azure's temporary /mnt/resource): the user's to clear.
var mountScratchNames = map[string]bool{"scratch": true, "tmp": true, "temp": true, "resource": true}

// mountParts splits p when it lies under a mount root: the root and the
// rest; nil for other paths and for WSL's drives (/mnt/c is the Windows
// disk, judged as one by windowsZone).
func mountParts(p string) []string {
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	if len(parts) == 0 || !strings.HasPrefix(p, "/") {
		return nil
	}
	switch {
	case parts[0] == "srv" && len(parts) > 2 && strings.HasPrefix(strings.ToLower(parts[1]), "share"):
		return parts[1:] // below /srv/share… (the share's root itself is the system's)
	case !sharedMountRoots[parts[0]]:
		return nil
	case parts[0] == "mnt" && len(parts) > 1 && len(parts[1]) == 1 && isLetter(parts[1][0]):
		return nil // WSL's /mnt/c
	}
	return parts
}

// MountScratch: p is a scratch folder of a mount (/mnt/scratch/x, /mnt/tmp).
func MountScratch(p string) bool { return mountScratch(p) }

// personalDrive: a mount named for the user's own removable disk
// (/mnt/usb-backup, /media/external, /Volumes/USB_STICK): no one else's.
func personalDrive(parts []string) bool {
	for i, d := range parts {
		if i == 0 || i > 2 {
			continue
		}
		d = strings.ToLower(d)
		for _, w := range []string{"usb", "external", "portable", "sdcard", "thumb"} {
			if strings.Contains(d, w) {
				return true
			}
		}
	}
	return false
}

// mountScratch: p is a scratch folder of a mount (/mnt/scratch/x, /mnt/tmp).
func mountScratch(p string) bool {
	parts := mountParts(p)
	return len(parts) > 1 && mountScratchNames[strings.ToLower(parts[1])]
}

// SharedMount reports whether p lies on a network share or a drive others
// use (the shared zone): below a mount root, not a scratch folder of it,
// not the user's own drive (a USB disk, /media/USER/…)
// and not a cache (SharedCache: a build cache others fill is rebuilt, so
// clearing it asks as elsewhere does).
func SharedMount(p, home string) bool {
	parts := mountParts(p)
	return parts != nil && !mountScratch(p) && !SharedCache(p) && !personalDrive(parts) &&
		!(parts[0] == "media" && len(parts) > 1 && home != "" && parts[1] == path.Base(home)) // /media/USER/…: the user's own removable drive
}

// SharedCache: p lies in a cache folder on a mount (/mnt/ci-cache/gradle,
// /mnt/nfs/cache/pip): rebuilt by whoever fills it, but others' builds use it.
func SharedCache(p string) bool {
	parts := mountParts(p)
	for i, d := range parts {
		if i > 0 && strings.Contains(strings.ToLower(d), "cache") {
			return true
		}
	}
	return false
}
