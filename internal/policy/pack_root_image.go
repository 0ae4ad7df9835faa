package policy

import (
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Root actions whose every target is the project's own image or build
// tree: assembling a root filesystem image is everyday embedded and OS
// work, and needs root for loop devices, mounts and chroots. What such a
// command changes stays in the project's files (or in a mount point it
// creates under /mnt), so the sudo ask would only be noise; mounts over
// the machine's own directories, devices and binds keep asking.

// rootProjectWork: sudo's inner command works only on the project's image
// or build tree (losetup build/disk.img, mount -o loop,ro build/x.ext4
// /mnt/x, umount -R build/rootfs, debootstrap … build/rootfs URL, chroot
// build/rootfs sh -c 'apt-get install …'), or only lists (bpftool prog
// list), or is a build run in a resource-limited scope (systemd-run
// --scope -p MemoryMax=4G make -j16).
func rootProjectWork(e *Env, in *Cmd) bool {
	switch in.Name {
	case "losetup":
		if in.Has("-d", "-D", "--detach", "--detach-all") {
			return allInProject(e, in, in.Pos) || len(in.Pos) > 0 && allLoopDevs(in.Pos)
		}
		return len(in.Pos) == 1 && imageHere(e, in, in.Pos[0]) // a scratch image (/tmp/sdcard.img) too
	case "mount":
		return projectLoopMount(e, in)
	case "rm":
		// a root-owned build tree (what debootstrap made) removed as root:
		// rm's own rules judge the delete like any other in the project
		return allInProject(e, in, in.Pos) && allBuildRoots(in.Pos)
	case "umount":
		return len(in.Pos) > 0 && allInProject(e, in, in.Pos)
	case "debootstrap", "mmdebstrap", "multistrap", "pacstrap":
		return len(in.Pos) >= 2 && inProject(e, in, in.Pos[1]) && buildRoot(in.Pos[1]) ||
			in.Name == "pacstrap" && len(in.Pos) >= 1 && inProject(e, in, in.Pos[0]) && buildRoot(in.Pos[0])
	case "chroot":
		return len(in.Pos) > 1 && inProject(e, in, in.Pos[0]) && buildRoot(in.Pos[0]) &&
			callfacts.IsShell(callfacts.ProgramName(in.Pos[1])) && shellInTree(e, in)
	case "systemd-run":
		return scopedBuild(e, in)
	}
	if vs := objectReports[in.Name]; len(vs) > 0 && len(in.Pos) >= 2 {
		for _, v := range vs {
			if strings.EqualFold(in.Pos[1], v) {
				return true
			}
		}
	}
	return false
}

// objectReports: programs spoken as OBJECT VERB whose listing verbs only
// print what is loaded (bpftool prog list, bpftool map show).
var objectReports = map[string][]string{
	"bpftool": {"list", "show", "dump"},
}

// packageTools change only the tree they run in: inside a chroot that is
// a build root they install into that tree.
var packageTools = map[string]bool{"apt-get": true, "apt": true, "dpkg": true, "apk": true, "dnf": true, "yum": true,
	"zypper": true, "pacman": true, "xbps-install": true, "opkg": true, "rpm": true}

// shellInTree: every command the chroot's shell runs is a build or a
// package manager, so what it changes stays in the build root.
func shellInTree(e *Env, sh *Cmd) bool {
	n := 0
	for i := range e.F.Commands {
		d := &e.F.Commands[i]
		if d.Depth > sh.Depth && len(d.Wrappers) > len(sh.Wrappers) {
			if !buildCmds[d.Name] && !packageTools[d.Name] {
				return false
			}
			n++
		}
	}
	return n > 0
}

// projectLoopMount: a project image file mounted through a loop device on
// a mount point of its own (under /mnt, /media, the project or a scratch
// directory); not a bind, a remount, or a device.
func projectLoopMount(e *Env, in *Cmd) bool {
	pos := withoutValues(in, "-o", "-t", "--options", "--types")
	if in.Has("--bind", "--rbind", "-B", "-R", "--move", "-M") || len(pos) != 2 {
		return false
	}
	opts := strings.Split(optValue(in, "-o"), ",")
	loop := false
	for _, o := range opts {
		switch o {
		case "loop":
			loop = true
		case "remount", "bind", "rbind", "move":
			return false
		}
	}
	src, dst := pos[0], pos[1]
	if !loop && !imageFile(src) || !imageHere(e, in, src) {
		return false
	}
	d := path.Clean(e.abs(in, dst))
	for _, p := range []string{"/mnt/", "/media/", "/tmp/", e.F.Project + "/"} {
		if strings.HasPrefix(d+"/", p) && d+"/" != p {
			return true
		}
	}
	return false
}

// imageFile: a file name that is a disk or filesystem image.
func imageFile(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".img", ".iso", ".ext4", ".ext2", ".ext3", ".squashfs", ".raw", ".qcow2", ".erofs", ".btrfs", ".xfs", ".vfat", ".fat":
		return true
	}
	return false
}

// scopedBuild: systemd-run --scope with resource limits around a build
// that installs nothing (make -j16, not make install).
func scopedBuild(e *Env, in *Cmd) bool {
	if !in.Has("--scope") {
		return false
	}
	n := 0
	for i := range e.F.Commands {
		d := &e.F.Commands[i]
		if len(d.Wrappers) > 0 && strings.HasPrefix(d.Wrappers[len(d.Wrappers)-1], "systemd-run") {
			if !buildCmds[d.Name] || anyPos(d, "install", "modules_install", "uninstall") {
				return false
			}
			n++
		}
	}
	return n > 0
}

func inProject(e *Env, c *Cmd, a string) bool {
	if callfacts.UnknownValue(a) || e.F.Project == "" {
		return false
	}
	p := e.abs(c, a)
	return strings.HasPrefix(p, e.F.Project+"/")
}

// imageHere: a disk image file in the project or in a scratch directory
// (/tmp/sdcard.img that truncate just made): a loop device over it, or
// its mount, changes only that file. A device (/dev/…) or a
// name the line does not show is not one.
func imageHere(e *Env, c *Cmd, a string) bool {
	if inProject(e, c, a) {
		return true
	}
	if callfacts.UnknownValue(a) || strings.ContainsAny(a, "*?[$`") {
		return false
	}
	return callfacts.ZoneOf(e.abs(c, a), e.F.Home, e.F.Project) == callfacts.ZoneTemp
}

func allInProject(e *Env, c *Cmd, as []string) bool {
	for _, a := range as {
		if !inProject(e, c, a) {
			return false
		}
	}
	return len(as) > 0
}

func allLoopDevs(as []string) bool {
	for _, a := range as {
		if !strings.HasPrefix(a, "/dev/loop") {
			return false
		}
	}
	return true
}

func allBuildRoots(as []string) bool {
	for _, a := range as {
		if !buildRoot(a) {
			return false
		}
	}
	return len(as) > 0
}

// withoutValues: c's positionals less the values its options took
// (mount -o loop,ro IMG DIR: the positionals are IMG and DIR).
func withoutValues(c *Cmd, opts ...string) []string {
	skip := map[string]bool{}
	for _, o := range opts {
		if v := optValue(c, o); v != "" {
			skip[v] = true
		}
	}
	var out []string
	for _, p := range c.Pos {
		if skip[p] {
			delete(skip, p)
			continue
		}
		out = append(out, p)
	}
	return out
}
