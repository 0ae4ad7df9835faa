package policy

import (
	_ "embed"
	"slices"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/callfacts"
	"github.com/warden-dev/warden/internal/datatable"
)

// installscope.txt says, per package manager, which subcommands install
// and what makes an install land outside the project (see its header).
//
//go:embed installscope.txt
var installScopeText string

type installScope struct {
	installs []string // "install", "global:add", "-S"
	gsubs    []string
	always   bool
	global   []string
	envOpts  []string
	envNames []string
	into     []string
	system   bool
	asroot   bool
	vars     []string
	trees    []string // /usr/ports: run there, the install targets install into the system
	deps     []string // --installdeps, --deps-only: only what the target project declares
	depfiles []string // Gemfile, *.rockspec: the manifests a bare deps target may name
}

var installScopes = sync.OnceValue(func() map[string]*installScope {
	m := map[string]*installScope{}
	datatable.Must("installscope.txt", installScopeText, 2, func(l datatable.Line) error {
		s := &installScope{}
		for _, fld := range l.Fields[1:] {
			k, v, _ := strings.Cut(fld, "=")
			switch k {
			case "installs":
				s.installs = strings.Split(v, ",")
			case "gsubs":
				s.gsubs = strings.Split(v, ",")
			case "always":
				s.always = true
			case "system":
				s.system = true
			case "asroot":
				s.asroot = true
			case "vars":
				s.vars = strings.Split(v, ",")
			case "trees":
				s.trees = strings.Split(v, ",")
			case "global":
				s.global = strings.Split(v, ",")
			case "into":
				s.into = strings.Split(v, ",")
			case "deps":
				s.deps = strings.Split(v, ",")
			case "depfiles":
				s.depfiles = strings.Split(v, ",")
			case "env":
				opts, names, _ := strings.Cut(v, ":")
				s.envOpts, s.envNames = strings.Split(opts, ","), strings.Split(names, ",")
			default:
				return l.Errorf("unknown key %q", k)
			}
		}
		m[l.Fields[0]] = s
		return nil
	})
	return m
})

// installManagers are the programs installscope.txt describes (the rule's
// prefilter).
func installManagers() []string {
	var out []string
	for n := range installScopes() {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// installing reports whether c is one of its manager's installs.
func (s *installScope) installing(c *Cmd) bool { return subIn(c, s.installs) }

// subIn reports whether c's subcommand (a word, a pair A:B or an -option)
// is one of ops.
func subIn(c *Cmd, ops []string) bool {
	for _, op := range ops {
		switch {
		case strings.HasPrefix(op, "-"):
			for _, a := range c.Args {
				// pacman -Syu counts as -S; --sync stays itself
				if a == op || len(op) == 2 && len(a) > 2 && a[1] != '-' && strings.HasPrefix(a, op) {
					return true
				}
			}
		case strings.Contains(op, ":"):
			a, b, _ := strings.Cut(op, ":")
			if c.Sub(0) == a && c.Sub(1) == b {
				return true
			}
		case c.Sub(0) == op:
			return true
		case strings.HasPrefix(c.Name, "make") || c.Name == "gmake" || c.Name == "ninja":
			if slices.Contains(c.Pos, op) {
				return true // make -j4 all install, make modules_install install
			}
		}
	}
	return false
}

// installWhere says where an install by c lands when that is outside the
// project ("" when it is the project's own environment or unknown).
func installWhere(e *Env, c *Cmd, s *installScope) string {
	if s.asroot {
		for _, w := range c.Wrappers {
			n, _, _ := strings.Cut(w, " ")
			if n == "sudo" || n == "doas" || n == "run0" || n == "pkexec" || n == "su" {
				return "into the system's directories as root (" + n + ")"
			}
		}
		if len(s.trees) > 0 {
			dir := optValue(c, "-C")
			if dir == "" {
				dir = c.Dir
			} else if !strings.HasPrefix(dir, "/") {
				dir = e.abs(c, dir)
			}
			if dir == "" {
				dir = e.F.Cwd
			}
			for _, t := range s.trees {
				if dir == t || strings.HasPrefix(dir, t+"/") {
					return "into the system, from the ports tree " + t
				}
			}
		}
		for _, a := range c.Args {
			k, v, ok := strings.Cut(a, "=")
			if ok && slices.Contains(s.vars, k) && strings.HasPrefix(v, "/") {
				if z := callfacts.ZoneOf(e.abs(c, v), e.F.Home, e.F.Project); z == callfacts.ZoneSystem {
					return "into " + v + " (" + k + ")"
				}
			}
		}
	}
	for _, o := range s.into {
		v := optValue(c, o)
		if v == "" {
			continue
		}
		switch callfacts.ZoneOf(e.abs(c, v), e.F.Home, e.F.Project) {
		case callfacts.ZoneProject, callfacts.ZoneRepo, callfacts.ZoneTemp:
			return "" // vendor/bundle, ./.tools: the project's own
		}
		return "into " + homeRel(e.abs(c, v), e.F.Home)
	}
	for _, o := range s.global {
		if c.Has(o) || optValue(c, strings.SplitN(o, "=", 2)[0]) != "" && strings.Contains(o, "=") && strings.Contains(c.String(), o) {
			return "for the whole user or machine (" + o + ")"
		}
	}
	for _, o := range s.envOpts {
		if v := optValue(c, o); v != "" && slices.Contains(s.envNames, v) {
			return "into the shared " + v + " environment"
		}
	}
	if s.asroot {
		return ""
	}
	if subIn(c, s.gsubs) {
		return "for every project of the user (" + c.Name + " " + strings.ReplaceAll(c.Sub(0)+" "+c.Sub(1), ":", " ") + ")"
	}
	if s.always {
		if s.system {
			return "into the system's packages"
		}
		return "outside the project, for every project of the user"
	}
	return ""
}

// isolatedInstall reports whether c runs inside a root of its own (a
// chroot, a container, a build sandbox): the host is not what it changes.
func isolatedInstall(c *Cmd) bool {
	for _, w := range c.Wrappers {
		n, _, _ := strings.Cut(w, " ")
		switch n {
		case "chroot", "schroot", "proot", "systemd-nspawn", "arch-chroot", "docker", "podman", "nerdctl", "kubectl", "toolbox", "distrobox", "lxc", "multipass", "vagrant":
			return true
		}
	}
	return false
}

// systemComponent reports whether a system package install replaces a
// part the machine boots or draws with (a driver, the kernel, firmware,
// the boot loader, the C library, init), or upgrades every package: a
// tool added beside them (jq, ripgrep) is routine and only recorded.
func systemComponent(c *Cmd) bool {
	pkgs := 0
	for i, p := range c.Pos {
		if i == 0 && !strings.HasPrefix(c.Name, "pacman") && c.Name != "yay" {
			continue // the subcommand
		}
		if strings.HasPrefix(p, "-") {
			continue
		}
		pkgs++
		l := strings.ToLower(p)
		for _, k := range systemComponents {
			if strings.HasPrefix(l, k) || strings.HasSuffix(k, "-") && strings.Contains(l, "-"+k) {
				return true
			}
		}
		if strings.HasSuffix(l, "-dkms") || strings.Contains(l, "-firmware") || strings.Contains(l, "-kmod") {
			return true
		}
	}
	switch c.Sub(0) {
	case "upgrade", "full-upgrade", "dist-upgrade", "safe-upgrade", "dup", "update", "up", "refresh":
		return pkgs == 0 || c.Name == "brew" // every package on the machine
	}
	return slices.ContainsFunc(c.Args, func(a string) bool { return a == "-Syu" || a == "-Su" || a == "-Syyu" })
}

// NVIDIA's driver packages by name (nvidia-driver-550, nvidia-dkms-535,
// nvidia-kernel-open, nvidia-utils-550, xserver-xorg-video-nvidia); the
// user-space toolkits beside the driver (nvidia-container-toolkit,
// nvidia-cuda-toolkit, nvidia-docker2) install like any tool.
var systemComponents = []string{"nvidia-driver", "nvidia-dkms", "nvidia-kernel", "nvidia-open", "nvidia-headless", "nvidia-utils", "nvidia-compute-utils", "nvidia-graphics-drivers", "nvidia-linux", "nvidia-lts", "nvidia-fs", "cuda-drivers", "linux-image", "linux-headers", "linux-modules", "linux-firmware", "linux-generic", "kernel",
	"firmware-", "grub", "shim-signed", "systemd", "libc6", "glibc", "dkms", "xserver-xorg-video-", "amdgpu", "rocm-dkms", "zfs-dkms", "initramfs", "dracut", "mesa-", "xorg-x11-drv-", "bootloader", "kmod-", "akmod-", "broadcom-", "intel-microcode", "amd64-microcode"}

// globalInstallRule: one model over every package manager, from
// installscope.txt — an install that lands outside the project changes
// what every later command, in every project, runs.
func globalInstallRule() Rule {
	return cmdRule("core.local:global-install", Ask, "Installing outside the project: for every project of the user or the machine (npm i -g, pnpm add -g, yarn global add, pip install --user, pipx, uv tool install, conda install -n base, gem install, cargo install, go install, composer global require, corepack enable, dotnet tool install -g) or over the system's own parts (a driver, the kernel, firmware, a full system upgrade, sudo make install, R's site library); installscope.txt says where each manager installs", append(installManagers(), "rscript", "r"),
		func(e *Env, c *Cmd) string {
			if c.Name == "rscript" || c.Name == "r" {
				if where := rLibraryInstall(c); where != "" && !isolatedInstall(c) {
					return "R installs packages " + where + ": every later R session on the machine loads them: " + c.String()
				}
				return ""
			}
			s := installScopes()[c.Name]
			if s == nil || !s.installing(c) || e.dryRun(c) || isolatedInstall(c) || projectDepsInstall(e, c, s) {
				return ""
			}
			if c.Has("--list", "--version", "-V") {
				return "" // cargo install --list prints what is there
			}
			if (c.Name == "npm" || c.Name == "pnpm") && c.Sub(0) == "link" && len(c.Pos) > 1 {
				return "" // npm link ../lib links a package into this project
			}
			if (c.Name == "go" || c.Name == "cargo") && localBuild(c) {
				return "" // go install ./cmd/x, cargo install --path .: the project's own program
			}
			if (c.Name == "pip" || c.Name == "pip3") && projectVenvInstall(e, c) {
				return ""
			}
			where := installWhere(e, c, s)
			if where == "" {
				return ""
			}
			if s.system && !systemComponent(c) && !strings.HasPrefix(where, "into /") {
				return "" // a tool beside the system's (sudo apt install jq): core.shell:sudo-install asks when it runs as root
			}
			return c.Name + " installs " + where + ": every later command, in every project, runs what it puts there: " + c.String()
		},
		[]string{"npm i -g @anthropic-ai/claude-code@latest", "npm link", "pnpm add -g turbo", "yarn global add serve", "pip install --break-system-packages --user pyyaml",
			"pip install --user -U jupyterlab", "python3 -m pip install --user black", "pipx install poetry", "uv tool install ruff", "conda install -n base -c conda-forge mamba -y",
			"mamba update --name base --all", "gem install rails -v 7.1.3", "cargo install cargo-watch --locked", "go install github.com/air-verse/air@latest",
			"composer global require laravel/installer", "corepack enable --install-directory /usr/local/bin", "dotnet tool install -g dotnet-ef", "sudo apt-get install -y nvidia-driver-550",
			"sudo dnf install -y kernel-devel akmod-nvidia", "sudo apt-get -y dist-upgrade", "pip install --target /usr/lib/python3/dist-packages requests", "sudo -E env \"PATH=$PATH\" npm i -g pm2",
			"deno install -g -A jsr:@std/http/file-server", "luarocks install luasocket", "nix profile install nixpkgs#ripgrep", "bun add --global serve",
			"opam install ~/Downloads/x --deps-only", "sudo make install", "sudo make modules_install install", "make install PREFIX=/usr/local", "sudo cmake --install build", "Rscript -e 'install.packages(\"data.table\", lib = .Library)'", "sudo Rscript -e 'BiocManager::install(\"DESeq2\")'"},
		[]string{"npm i -D typescript", "npm link ../lib", "pip install -r requirements.txt", "npm ls -g", "yarn add react", "pip install --target ./vendor requests",
			"gem install --install-dir vendor/gems rake", "cargo install --root ./.tools cargo-nextest", "conda install -c conda-forge numpy", "conda install -n myenv numpy",
			"conda create -n base-analysis python=3.11", "sudo apt-get install -y jq", "sudo chroot build/rootfs /bin/sh -c 'apt-get install -y busybox'", "uv pip install -r requirements.txt",
			"uv tool run ruff check", "npm install --global --help", "pipx list", "gem list", "cargo install --list", "apt-get install -s nvidia-driver-550", "docker run --rm ubuntu apt-get install -y nvidia-driver-550",
			"composer require spatie/laravel-backup", "dotnet tool restore", "corepack --version", "go install ./cmd/...", "cargo install --path .", "make install", "make -C build install DESTDIR=$PWD/stage", "cmake --install build --prefix ./dist",
			"Rscript -e 'install.packages(\"data.table\")'", "Rscript -e 'renv::install(\"dplyr\")'", "make test",
			"opam install . --deps-only", "cabal install --only-dependencies", "luarocks install --only-deps acme-1.0-1.rockspec"})
}

// localBuild reports whether go or cargo install builds the project's own
// code (go install ./cmd/x, cargo install --path .) or the Go toolchain's
// own tools (golang.org/x/tools/gopls), not another's.
func localBuild(c *Cmd) bool {
	if c.Name == "cargo" {
		return c.Has("--path") && !c.Has("--git")
	}
	for _, p := range c.Pos[1:] {
		// golang.org/x/…: the toolchain's own tools (gopls, goimports)
		if !strings.HasPrefix(p, ".") && !strings.HasPrefix(p, "golang.org/") {
			return false
		}
	}
	return len(c.Pos) > 1
}

// rInstall matches R's package installers in a payload.
var rInstall = re(`(?:install\.packages|BiocManager::install|remotes::install_\w+|devtools::install\w*|pak::pkg_install)\s*\(`)

// rSystemLib matches a lib= argument naming the system's R library.
var rSystemLib = re(`\blib\s*=\s*(?:\.Library(?:\.site)?\b|["'](?:/usr|/opt|/Library|/etc|/srv))`)

// rLibraryInstall says where an R one-liner installs packages when that is
// the system's library (lib = .Library, a root Rscript), "" otherwise:
// R's default is the user's own library or the project's renv.
func rLibraryInstall(c *Cmd) string {
	if c.Payload == "" || !rInstall.MatchString(c.Payload) {
		return ""
	}
	if rSystemLib.MatchString(c.Payload) {
		return "into the system's R library"
	}
	for _, w := range c.Wrappers {
		if n, _, _ := strings.Cut(w, " "); n == "sudo" || n == "doas" {
			return "as root, into the system's R library"
		}
	}
	return ""
}
