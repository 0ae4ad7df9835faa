package policy

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// tempDir reports whether p is in a scratch directory.
func tempDir(p string) bool {
	return under(p, "/tmp") || under(p, "/var/tmp") || under(p, "/dev/shm") || under(p, "/private/tmp")
}

// destroyPack: destructive tools that had no rule of their own.
func destroyPack() Pack {
	return Pack{Name: "core.destroy", Desc: "Destructive tools: sync with delete, disk partitioning, power off, killing every process, moving system dirs away, truncating files outside the project, deleting users, the whole project, kernel writes, volumes",
		// one rule or rule list per line: packs grow by appending a line
		Rules: slices.Concat(
			destroyOwnRules(),
			systemRules(),
			tempRootPermissionRules(),
			[]Rule{remoteScriptRule()},
			[]Rule{findDeleteRule()},
			packageRules(),
			killByName(),
			serviceRules(),
			killWorkRules(),
			[]Rule{vmDeleteRule()},
			windowsRules(),
			winAdminRules(),
			netConfigRules(),
			killHoldersRules(),
			killByPatternRules(),
			containerKillRules(),
			pidFileKillRules(),
			[]Rule{foreignPidFileKillRule()},
			killListedRules(),
			listedTargetRules(),
			listedRemoteDeleteRules(),
		)}
}

// destroyOwnRules: the destructive tools core.destroy judges itself (the
// rules it gathers from other files follow them in destroyPack).
func destroyOwnRules() []Rule {
	return []Rule{
		cmdRule("core.destroy:sync-delete", Deny, "Sync that deletes at the destination or the source (rsync --delete/--remove-source-files, rclone sync/purge/delete, aws s3 sync --delete, gsutil rsync -d)", callfacts.SyncTools,
			func(e *Env, c *Cmd) string {
				if c.Name != "rsync" && anyPos(c, "sync", "rsync", "mirror") && projectMirror(e, c) {
					return "" // it deletes only in a mirror inside the project or a scratch directory
				}
				switch c.Name {
				case "rsync":
					for _, f := range c.Flags {
						if strings.HasPrefix(f, "--del") && len(c.Pos) > 1 && !strings.Contains(c.Pos[len(c.Pos)-1], ":") {
							continue // a local destination: the verdict table judges it by zone (core.zones)
						}
						if strings.HasPrefix(f, "--del") || f == "--remove-source-files" || f == "--remove-sent-files" {
							return "rsync " + f + " deletes files: " + c.String()
						}
					}
				case "rclone":
					switch sub(c) {
					case "sync", "purge", "delete", "deletefile", "rmdir", "rmdirs", "cleanup", "move", "bisync", "dedupe":
						return "rclone " + sub(c) + " deletes files: " + c.String()
					}
				case "aws", "s3cmd", "mc", "azcopy":
					if ownDevProfileBucket(e, c) {
						return "" // s3://crumbco-menu-dev-jsmith/ under AWS_PROFILE=dev-jsmith: the developer's own dev bucket (own_dev_bucket.go)
					}
					if anyPos(c, "sync", "mirror") && (c.Has("--delete", "--delete-removed", "--remove") || strings.Contains(c.String(), "--delete-destination=true")) {
						return c.Name + " sync deletes what the source lacks: " + c.String()
					}
				case "gsutil":
					if anyPos(c, "rsync") && (c.Has("-d") || strings.Contains(strings.Join(c.Flags, " "), "d")) {
						return "gsutil rsync -d deletes what the source lacks: " + c.String()
					}
				}
				return ""
			},
			[]string{"rsync -a --delete src/ backup:/srv/backup/", "rsync -av --del ./ host:/srv/app/", "rclone sync ./site remote:bucket", "aws s3 sync . s3://bucket --delete", "rsync -a --remove-source-files logs/ archive/", "rclone purge remote:old"},
			[]string{"rsync -av src/ dst/", "rsync -an --delete src/ dst/", "rsync -a --delete ./src/ ./dist/", "rclone sync --dry-run a remote:b", "rclone ls remote:", "aws s3 sync . s3://bucket"}),
		cmdRule("core.destroy:disk-tools", Deny, "Partitioning, wiping or erasing disks (fdisk, parted, sgdisk, blkdiscard, cryptsetup luksFormat, zpool destroy, lvremove…)", callfacts.DiskTools,
			func(e *Env, c *Cmd) string {
				if onlyHelp(c) || c.OnlyReports() || c.Has("-l", "--list", "-p", "--print", "-L", "--version", "status", "-i") && c.Name != "blkdiscard" {
					return ""
				}
				a := strings.ToLower(strings.Join(c.Args, " "))
				switch c.Name {
				case "parted":
					if strings.Contains(a, "print") && !strings.Contains(a, "mklabel") && !strings.Contains(a, "rm ") && !strings.Contains(a, "mkpart") {
						return ""
					}
				case "cryptsetup":
					if !strings.Contains(a, "luksformat") && !strings.Contains(a, "erase") && !strings.Contains(a, "reencrypt") && !strings.Contains(a, "luksremovekey") && !strings.Contains(a, "luksKillSlot") {
						return ""
					}
				case "zpool", "zfs":
					if !anyPos(c, "destroy", "labelclear", "rollback") {
						return ""
					}
				case "fdisk":
					if len(c.Args) == 1 && len(c.Pos) == 1 && !strings.HasPrefix(c.Pos[0], "/") {
						return "" // fdisk sd0 prints the BSDs' MBR (-i, -e, -u change it: hostacts.txt)
					}
				case "mdadm":
					if !c.Has("--zero-superblock") && !anyPos(c, "--zero-superblock") {
						return ""
					}
				case "hdparm":
					if !strings.Contains(a, "security-erase") && !strings.Contains(a, "--trim-sector") {
						return ""
					}
				case "nvme":
					if !anyPos(c, "format", "sanitize") {
						return ""
					}
				case "badblocks":
					if !c.Has("-w") {
						return ""
					}
				case "diskutil":
					if !anyPos(c, "eraseDisk", "eraseVolume", "partitionDisk", "zeroDisk", "randomDisk", "secureErase", "reformat", "deleteVolume", "deleteSnapshot", "deleteContainer") ||
						anyPos(c, "list", "info") {
						return ""
					}
					return "diskutil erases or repartitions a disk: " + c.String()
				}
				if !callfacts.NamesArgs(c.Name) && regularFiles(e, c, c.Pos) {
					return "" // a disk image in the project
				}
				if len(c.Pos) == 0 && (c.Name == "fdisk" || c.Name == "parted" || c.Name == "gdisk" || c.Name == "cfdisk") {
					return ""
				}
				return c.Name + " rewrites or erases a disk: " + c.String()
			},
			[]string{"fdisk /dev/sda", "sgdisk --zap-all /dev/nvme0n1", "parted /dev/sdb mklabel gpt", "blkdiscard /dev/sdc", "cryptsetup luksFormat /dev/sdb1", "zpool destroy tank", "diskutil eraseDisk APFS Blank disk2"},
			[]string{"fdisk -l", "parted -l", "sgdisk -p /dev/sda", "cryptsetup status root", "zpool status", "diskutil list", "diskutil info disk0"}),
		cmdRule("core.destroy:snapshots", Deny, "Deleting backups or snapshots (tmutil delete, btrfs subvolume delete, snapper rm, timeshift --delete, vssadmin delete shadows, velero backup delete)", callfacts.SnapshotTools,
			func(e *Env, c *Cmd) string {
				if c.Effect == callfacts.EffectDelete {
					return c.EffectWhy() + ": " + c.String()
				}
				return ""
			},
			[]string{"tmutil deletelocalsnapshots /", "btrfs subvolume delete /mnt/@home", "snapper -c root delete 1-100", "timeshift --delete-all", "vssadmin delete shadows /all /quiet"},
			[]string{"tmutil listbackups", "btrfs subvolume list /", "snapper list", "timeshift --list", "vssadmin list shadows"}),
		cmdRule("core.destroy:power", Deny, "Shutting down or rebooting the machine (shutdown, reboot, poweroff, halt, init 0/6)", callfacts.PowerTools,
			func(e *Env, c *Cmd) string {
				if onlyHelp(c) || c.Has("-c", "--show") && c.Name == "shutdown" {
					return ""
				}
				switch c.Name {
				case "init", "telinit":
					if !anyPos(c, "0", "6", "1", "s", "S") {
						return ""
					}
				case "systemctl":
					if !anyPos(c, "reboot", "poweroff", "halt", "kexec", "suspend", "hibernate", "rescue", "emergency") {
						return ""
					}
				case "kexec":
					if !c.Has("-e", "--exec") {
						return ""
					}
				}
				return c.Name + " stops or restarts the machine: " + c.String()
			},
			[]string{"sudo shutdown -h now", "reboot", "systemctl poweroff", "init 0", "ssh prod reboot", "halt -f"},
			[]string{"shutdown -c", "echo reboot", "uptime", "systemctl status", "last reboot"}),
		cmdRule("core.destroy:kill-all", Deny, "Killing every process (kill -9 -1, kill 1, killall5)", []string{"kill", "killall5", "pkill", "killall"},
			func(e *Env, c *Cmd) string {
				switch c.Name {
				case "killall5":
					return "killall5 signals every process"
				case "pkill", "killall":
					if c.Has("-u", "-U", "--euid", "--uid", "--user") && len(c.Pos) <= 1 {
						return c.Name + " kills every process of a user (the session it runs in too): " + c.String() // the one positional is the user
					}
					if c.Has("-u") && anyPos(c, "root") || anyPos(c, "init", "systemd", "sshd", "launchd", ".", ".*", "^", "''") || c.Has("-f") && anyPos(c, ".", ".*") {
						return c.Name + " kills system processes: " + c.String()
					}
					return ""
				}
				inBox := containerExec(c) // pid 1 there is the container's own (kill_container.go)
				for i, a := range c.Args {
					if a == "1" && i == len(c.Args)-1 && inBox {
						continue
					}
					if (a == "-1" && i > 0) || a == "1" && i == len(c.Args)-1 || a == "-1" && i > 0 && c.Args[i-1] == "--" {
						return "kill " + strings.Join(c.Args, " ") + " signals every process (or init)"
					}
				}
				return ""
			},
			[]string{"kill -9 -1", "kill -KILL -1", "kill -s KILL -1", "sudo kill -9 1", "killall5 -9", "pkill -u $USER", "killall -u dev"},
			[]string{"kill -9 1234", "kill -1 4321", "kill %1", "pkill -f 'node server'", "pkill -u dev node", "killall -u dev vim"}),
		cmdRule("core.destroy:mv-away", Deny, "Moving /, the home directory or a system directory away (mv ~ /dev/null, mv /etc /tmp/x)", []string{"mv"},
			func(e *Env, c *Cmd) string {
				if len(c.Pos) < 2 {
					return ""
				}
				for _, a := range c.Pos[:len(c.Pos)-1] {
					if why := critical(e.abs(c, a), e.F.Home); why != "" {
						return "mv moves " + why + " away"
					}
				}
				if c.Pos[len(c.Pos)-1] == "/dev/null" {
					return "mv into /dev/null destroys " + strings.Join(c.Pos[:len(c.Pos)-1], " ")
				}
				return ""
			},
			[]string{"mv ~ /dev/null", "mv /etc /tmp/etc.bak", "sudo mv /usr/bin /usr/bin.old", "mv src/main.go /dev/null"},
			[]string{"mv a.txt b.txt", "mv build/ /tmp/old-build", "mv ~/Downloads/x.zip .", "mv -n a b"}),
		{
			ID: "core.destroy:truncate", Mode: Ask, Tools: shellTools,
			Desc: "Emptying or overwriting files outside the project (truncate -s 0, > file, : > file, cp /dev/null) and shell start-up files",
			Match: func(e *Env) string {
				for _, c := range e.F.Cmds("ln") {
					if len(c.Pos) > 1 && homeRC(path.Base(e.abs(c, c.Pos[len(c.Pos)-1]))) && path.Dir(e.abs(c, c.Pos[len(c.Pos)-1])) == e.F.Home {
						return "ln replaces " + c.Pos[len(c.Pos)-1] + ", a shell start-up file"
					}
				}
				for _, c := range e.F.Cmds("truncate", "cp", "tee") {
					if c.Name == "truncate" && !(c.Has("-s", "--size") && strings.Contains(" "+strings.Join(c.Args, " "), " 0")) && !strings.Contains(strings.Join(c.Args, " "), "--size=0") && !strings.Contains(strings.Join(c.Args, " "), "-s0") {
						continue
					}
					if c.Name == "cp" && (len(c.Pos) != 2 || c.Pos[0] != "/dev/null") {
						continue
					}
					if c.Name == "tee" && c.Has("-a", "--append") {
						continue
					}
					files := c.Pos
					if c.Name == "cp" {
						files = c.Pos[1:]
					} else if c.Name == "truncate" {
						files = nil
						for i, a := range c.Args {
							if !strings.HasPrefix(a, "-") && (i == 0 || c.Args[i-1] != "-s" && c.Args[i-1] != "--size") {
								files = append(files, a)
							}
						}
					}
					for _, f := range files {
						if p := e.abs(c, f); outside(e, p) || homeRC(path.Base(p)) && path.Dir(p) == e.F.Home {
							return fmt.Sprintf("%s empties or overwrites %s, outside the project", c.Name, homeRel(p, e.F.Home))
						}
					}
				}
				for _, r := range e.F.Redirects {
					if r.Op != ">" && r.Op != ">|" && r.Op != "&>" {
						continue
					}
					p := r.Target
					if homeRC(path.Base(p)) && path.Dir(p) == e.F.Home || r.Cmd == "" && outside(e, p) || (r.Cmd == ":" || r.Cmd == "true" || r.Cmd == "echo" && false) && outside(e, p) {
						return fmt.Sprintf("> %s overwrites a file outside the project", homeRel(p, e.F.Home))
					}
				}
				return ""
			},
			Catch: []string{"ln -sf /dev/null ~/.bashrc", "truncate -s 0 /var/log/syslog", "> ~/.bash_history", ": > /etc/hosts", "cp /dev/null ~/notes.txt", "echo '' > ~/.bashrc", "sudo truncate --size=0 /var/lib/app/data.db"},
			Allow: []string{"truncate -s 0 app.log", "> build/out.txt", "echo hi > /tmp/x", "echo x >> ~/.bashrc", "truncate -s 10M disk.img"},
		},
		cmdRule("core.destroy:rm-system", Ask, "Recursive delete inside a system directory (/etc/…, /usr/…, /var/lib/…, /opt/…), another user's home or /root", []string{"rm", "rimraf", "find"},
			func(e *Env, c *Cmd) string {
				if c.Name == "rm" && !recursive(c) || c.Name == "find" && !c.Has("-delete") {
					return ""
				}
				targets := c.Pos
				if c.Name == "find" {
					targets = findStartArgs(c)
				}
				for _, a := range targets {
					if why := systemPath(e.abs(c, a), e.F.Home); why != "" && !e.F.SandboxOwn(c, e.abs(c, a)) {
						return fmt.Sprintf("%s deletes %s inside %s", c.Name, a, why)
					}
				}
				return ""
			},
			[]string{"sudo rm -rf /var/lib/postgresql", "rm -rf /etc/nginx", "rm -rf /usr/local/lib", "rm -rf /home/alice/projects", "find /opt/app -delete", "rm -rf /root/.cache"},
			[]string{"rm -rf /tmp/x", "sudo rm -rf /var/lib/apt/lists/*", "rm -rf ~/proj/build", "rm -rf /var/tmp/cache", "rm /etc/x.conf.bak"}),
		{
			ID: "core.destroy:remote-delete", Mode: Deny, Tools: shellTools,
			Desc: "Deleting or wiping on another host or in a container (ssh host 'rm -rf …', docker/kubectl exec … rm -rf, dd, mkfs, truncate)",
			Match: func(e *Env) string {
				for i := range e.F.Commands {
					c := &e.F.Commands[i]
					where := remoteWrapper(c)
					if where == "" || scratchOnly(e, c) {
						continue
					}
					switch {
					case (c.Name == "rm" || c.Name == "rimraf") && (recursive(c) || c.Has("-f", "--force") || c.Name == "rimraf"),
						c.Name == "find" && c.Has("-delete"), c.Name == "shred", c.Name == "truncate", c.Name == "wipefs",
						strings.HasPrefix(c.Name, "mkfs"), c.Name == "dd" && strings.Contains(strings.Join(c.Args, " "), "of="),
						c.Name == "dropdb", c.Name == "rmdir", remoteSyncDeletes(c):
						return fmt.Sprintf("%s runs on another host or in a container through %s", c.String(), where)
					}
				}
				return ""
			},
			Catch: []string{"ssh db 'rm -rf /var/lib/mysql'", "docker exec app rm -rf /data", "kubectl exec web -- sh -c 'rm -rf /srv/*'", "ssh host truncate -s 0 /var/log/app.log"},
			Allow: []string{"ssh db 'ls /var/lib/mysql'", "docker exec app cat /data/x", "kubectl exec web -- df -h", "rm -rf ./build", "ssh ci 'rm -rf /tmp/build-cache'"},
		},
		cmdRule("core.destroy:rm-outside", Deny, "Recursive or glob delete outside the project (other projects, ~/Documents, data directories); scratch and cache directories excepted", []string{"rm", "rimraf", "find", "trash", "trash-put"},
			func(e *Env, c *Cmd) string {
				glob := false
				for _, p := range c.Pos {
					// a find root with {} after it (find ~/X … | xargs rm) stands for
					// every file find picks there: a glob
					glob = glob || strings.ContainsAny(p, "*?[") || strings.HasSuffix(p, "/{}")
				}
				targets := c.Pos
				switch c.Name {
				case "rm":
					if !recursive(c) && !glob {
						return ""
					}
				case "find":
					if !c.Has("-delete") && len(callfacts.FindExecs(c.Args)) == 0 || callfacts.FindsOnlyLeftovers(c) {
						return "" // find DIR -name '*.tmp' -delete: leftovers, wherever DIR is
					}
					del := c.Has("-delete")
					for _, x := range callfacts.FindExecs(c.Args) {
						n := callfacts.ProgramName(x[0])
						del = del || n == "rm" || n == "shred" || n == "unlink"
					}
					if !del {
						return ""
					}
					targets = findStartArgs(c)
				}
				for _, a := range targets {
					if callfacts.UnknownValue(a) {
						continue
					}
					p := e.abs(c, a)
					if !outside(e, p) || scratch(p, e.F.Home) || critical(p, e.F.Home) != "" || systemPath(p, e.F.Home) != "" || callfacts.RemoteScratch(c, p, e.F.Home) || e.F.SandboxOwn(c, p) || testAppData(p, e.F.Home) || callfacts.SharedCache(p) || callfacts.MountScratch(p) || // a cache on a share: the zone table asks
						c.Name == "rm" && !recursive(c) && callfacts.LeftoverName(path.Base(p)) || // rm ~/Downloads/*.crdownload: leftovers by kind
						callfacts.TrashesFileOnly(c, p, e.F.Home) || // trash-put ~/notes.md: one file, kept in the trash; never harsher than rm of it
						strings.HasSuffix(a, "/{}") && findsLeftoversOnly(e.F) { // find ~/Downloads -name '*.crdownload' | xargs rm: as find -delete
						continue // inside, or another rule's
					}
					return fmt.Sprintf("%s deletes %s, outside the project", c.Name, homeRel(p, e.F.Home))
				}
				return ""
			},
			[]string{"rm -rf ~/Documents", "rm -rf ../other-project", "rm -r /data/backups", "find ~/Downloads -type f -delete", "rm -rf ~/proj2/*", "rimraf ../shared"},
			[]string{"rm -rf ./build", "rm -rf /tmp/x", "rm -rf ~/.cache/pip", "rm ~/notes.txt", "find . -name '*.o' -delete", "rm -rf node_modules"}),
		cmdRule("core.destroy:user-delete", Deny, "Deleting users or groups, removing passwords (userdel, deluser, groupdel, passwd -d)", callfacts.UserTools,
			func(e *Env, c *Cmd) string {
				switch c.Name {
				case "passwd":
					if !c.Has("-d", "--delete", "-l", "--lock", "-e", "--expire") {
						return ""
					}
				case "usermod":
					if !c.Has("-L", "--lock", "-e", "--expiredate") {
						return ""
					}
				}
				if onlyHelp(c) || len(c.Pos) == 0 {
					return ""
				}
				return c.Name + " removes or locks an account: " + c.String()
			},
			[]string{"sudo userdel -r alice", "deluser bob", "groupdel devs", "passwd -d root"},
			[]string{"id alice", "passwd", "getent passwd bob", "userdel --help"}),
		cmdRule("core.destroy:shred", Deny, "shred (overwrites file content beyond recovery) outside scratch directories and the project's own files", []string{"shred", "srm", "wipe"},
			func(e *Env, c *Cmd) string {
				for _, p := range c.Pos {
					// A file of the project is no more lost than after rm
					// (its history is in git); elsewhere nothing is left.
					if a := e.abs(c, p); !tempDir(a) && (!under(a, e.F.Project) || a == e.F.Project || callfacts.UnknownValue(p)) {
						return c.Name + " destroys " + p + " beyond recovery"
					}
				}
				return ""
			},
			[]string{"shred -n 3 ~/.bash_history", "srm -r /home/dev/old/", "shred -uz /home/dev/data.db", "shred -u $F", "shred -u ../other/notes.txt"},
			[]string{"shred -u /tmp/secret.txt", "shred --help", "echo shred x", "man shred", "shred -u notes.txt", "shred -u secrets/tmp-token.txt"}),
	}
}

// scratchOnly reports whether every path c names is in a scratch
// directory (/tmp, /var/tmp): rm -rf /tmp/x on a host is routine.
func scratchOnly(e *Env, c *Cmd) bool {
	if len(c.Pos) == 0 || c.Name == "dd" || c.Name == "wipefs" || strings.HasPrefix(c.Name, "mkfs") {
		return false
	}
	targets := c.Pos
	if c.Name == "find" {
		targets = findStartArgs(c) // find DIR… -name '*.o' -delete: the folders it walks
		if len(targets) == 0 {
			return false // find -delete here: the folder it runs in
		}
	}
	for _, p := range targets {
		if a := e.abs(c, p); !callfacts.UserScratch(a, e.F.Home) && (callfacts.UnknownValue(p) || !tempDir(a) && !callfacts.RemoteScratch(c, a, e.F.Home) && !e.F.SandboxOwn(c, a)) {
			return false
		}
	}
	return true
}

// outside reports whether p is a file outside the project, the home
// directory's own scratch and the temp and device directories.
func outside(e *Env, p string) bool {
	return !under(p, e.F.Project) && !tempDir(p) && !callfacts.UserScratch(p, e.F.Home) && !strings.HasPrefix(p, "/dev/") && !strings.HasPrefix(p, "/proc/")
}

// regularFiles reports whether every one of args is a file in the project
// (a disk image, not a device).
func regularFiles(e *Env, c *Cmd, args []string) bool {
	n := 0
	for _, a := range args {
		if !callfacts.PathLike(a) && !strings.Contains(a, ".") {
			continue
		}
		n++
		p := e.abs(c, a)
		if strings.HasPrefix(p, "/dev/") || !under(p, e.F.Project) && !tempDir(p) || callfacts.UnknownValue(a) {
			return false
		}
	}
	return n > 0
}

// systemPath says which system area p lies strictly inside, or "" (the
// directories themselves are core.shell:rm-root's; scratch and package
// caches are routine).
func systemPath(p, home string) string {
	for _, ok := range []string{"/var/tmp", "/var/cache", "/var/folders", "/var/lib/apt/lists", "/tmp", "/private/tmp", "/private/var/folders"} {
		if under(p, ok) {
			return ""
		}
	}
	if home != "" && under(p, home) {
		return ""
	}
	parts := strings.SplitN(strings.TrimPrefix(p, "/"), "/", 2)
	if len(parts) < 2 || parts[1] == "" {
		return ""
	}
	top := "/" + parts[0]
	switch {
	case top == "/home" || top == "/Users":
		return "another user's home"
	case topLevelDirs[top] && top != "/mnt" && top != "/media" && top != "/Volumes" && top != "/dev" && top != "/proc" && top != "/sys" && top != "/run":
		return "the system directory " + top
	}
	return ""
}

// homeRC reports whether a home-directory file name is a shell or tool
// start-up file.
func homeRC(k string) bool {
	switch k {
	case ".bashrc", ".zshrc", ".profile", ".bash_profile", ".zprofile", ".gitconfig", ".vimrc", ".npmrc", ".zshenv", ".inputrc", ".tmux.conf":
		return true
	}
	return false
}

// scratch reports whether p is a temp or cache directory (rebuilt on
// demand, deleting it loses nothing).
func scratch(p, home string) bool {
	if tempDir(p) || home != "" && callfacts.ZoneOf(p, home, "") == callfacts.ZoneCache {
		return true
	}
	for _, c := range []string{"/.cache", "/Library/Caches", "/.npm/_cacache", "/.gradle/caches", "/go/pkg/mod/cache", "/.cargo/registry/cache", "/.m2/repository", "/node_modules", "/__pycache__", "/.pytest_cache", "/.mypy_cache", "/.next", "/.turbo", "/.parcel-cache", "/DerivedData"} {
		if strings.Contains(p+"/", c+"/") {
			return true
		}
	}
	return false
}

// findsLeftoversOnly reports whether every find on the line selects only
// leftovers (partial downloads, editor backups): what it feeds to a
// deleter is judged as find -delete of the same selection is.
func findsLeftoversOnly(f *Facts) bool {
	finds := f.Cmds("find")
	for _, c := range finds {
		if !callfacts.FindsOnlyLeftovers(c) {
			return false
		}
	}
	return len(finds) > 0
}
