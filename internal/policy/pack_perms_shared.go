package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Widening access to a tree outside the project: the files are others'
// as much as the user's (a lab's shared storage, a home folder), and who
// may read or change them is a decision for people, not a side effect.
// Every account (o+w, 777, o::rwx) → deny; a named user, a group, or a
// new owner (setfacl -m u:bob, g+w, chown -R, chgrp -R) → ask. The
// project and temp directories are the agent's to arrange.

// widening says how c widens access to its targets: "world" when every
// account may now write, "grant" when a group, a named user or a new
// owner gets access, "" when it narrows or changes nothing of the kind.
func widening(c *Cmd) string {
	switch c.Name {
	case "chown", "chgrp":
		if len(c.Pos) > 1 {
			return "grant"
		}
	case "setfacl":
		if c.Has("-x", "--remove", "-b", "--remove-all", "-k", "--remove-default") && !c.Has("-m", "--modify", "-M", "--set") {
			return ""
		}
		if worldWritable(c) {
			return "world"
		}
		for _, a := range c.Args {
			for _, en := range strings.Split(strings.ToLower(a), ",") {
				en = strings.TrimPrefix(en, "d:")
				en = strings.TrimPrefix(en, "default:")
				if (strings.HasPrefix(en, "u:") || strings.HasPrefix(en, "user:") || strings.HasPrefix(en, "g:") || strings.HasPrefix(en, "group:") || strings.HasPrefix(en, "m:") || strings.HasPrefix(en, "mask:")) &&
					strings.Count(en, ":") >= 2 && strings.Trim(en[strings.LastIndexByte(en, ':')+1:], "-") != "" {
					return "grant"
				}
			}
		}
	case "chmod":
		if worldWritable(c) {
			return "world"
		}
		if len(c.Pos) == 0 {
			return ""
		}
		m := c.Pos[0]
		if m != "" && strings.Trim(m, "01234567") == "" && len(m) >= 3 {
			g := m[len(m)-2]
			if g == '2' || g == '3' || g == '6' || g == '7' {
				return "grant"
			}
			return ""
		}
		for _, cl := range strings.Split(m, ",") {
			i := strings.IndexAny(cl, "+=")
			if i >= 0 && strings.ContainsAny(cl[i:], "rwx") && strings.ContainsAny(cl[:i], "go") {
				return "grant"
			}
		}
	}
	return ""
}

// wideningOutside finds a tree-wide widening of the kind want ("world"
// or "grant") on a target outside the project; it names the target and
// its zone.
func wideningOutside(e *Env, want string) (*Cmd, string, callfacts.Zone) {
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if c.Name != "chmod" && c.Name != "setfacl" && c.Name != "chown" && c.Name != "chgrp" || !treeWide(c) || c.Has("--help") || widening(c) != want {
			continue
		}
		for _, t := range c.Targets {
			z := callfacts.ZoneOf(t, e.F.Home, e.F.Project)
			switch z {
			case callfacts.ZoneProject, callfacts.ZoneRepo, callfacts.ZoneTemp, callfacts.ZoneCache, callfacts.ZoneUnknownSub:
				continue
			}
			if c.Name == "setfacl" && strings.Contains(t, ":") {
				continue // the ACL entry u:bob:rx read as a path
			}
			return c, t, z
		}
	}
	return nil, "", ""
}

// sharedPermsRules judge a tree-wide widening of access outside the
// project (see above).
func sharedPermsRules() []Rule {
	names := []string{"chmod", "setfacl", "chown", "chgrp"}
	return []Rule{
		{ID: "core.zones:shared-world-writable", Mode: Deny, Tools: shellTools, Cmds: names,
			Desc: "Making a whole tree outside the project and home writable by every account (chmod -R o+rwx /shared/lab/x, chmod -R 777 /data/x, setfacl -R -m o::rwx /mnt/nas/x): anyone on the machine can change or plant files in data others rely on",
			Match: func(e *Env) string {
				if c, t, z := wideningOutside(e, "world"); c != nil {
					return c.Name + " makes " + homeRel(t, e.F.Home) + " and everything under it writable by every account (" + string(z) + ")"
				}
				// another account given write over the whole home, or over
				// its config or keys, can plant code the user runs
				if c, t, z := wideningOutside(e, "grant"); c != nil && grantsWrite(c) && (t == e.F.Home || z == callfacts.ZoneHomeConfig || z == callfacts.ZoneCredentials) {
					return c.Name + " lets another account write " + homeRel(t, e.F.Home) + " and everything under it (" + string(z) + ")"
				}
				return ""
			},
			Catch: []string{"chmod -R o+rwx /shared/lab/patient_data", "sudo chmod -R 777 /data/cohort", "setfacl -R -m o::rwx /mnt/nas/projects", "chmod -R a+w /scratch/lab", "setfacl -R -m u:nobody:rwx ~"},
			Allow: []string{"chmod -R o+rwx ./public", "chmod -R go-rwx /shared/lab/patient_data", "chmod o+w /shared/lab/dropbox.txt", "chmod -R 777 /tmp/site"}},
		{ID: "core.zones:shared-access", Mode: Ask, Tools: shellTools, Cmds: names,
			Desc: "Giving a group, a named user or a new owner access to a whole tree outside the project (chmod -R g+w, setfacl -R -m u:bob:rx, chown -R, chgrp -R on shared storage or home data): who may read or change it is the people's decision",
			Match: func(e *Env) string {
				if c, t, z := wideningOutside(e, "grant"); c != nil {
					return c.Name + " gives another account access to " + homeRel(t, e.F.Home) + " and everything under it (" + string(z) + "): " + c.String()
				}
				return ""
			},
			Catch: []string{"chmod -R g+w /shared/lab/references", "setfacl -R -m u:collab01:rx /shared/lab/projects/rnaseq-2024", "sudo chown -R intern:intern /data/cohort-2023",
				"chgrp -R students ~/thesis", "chmod -R 775 /mnt/nas/projects", "setfacl -R -m g:lab:rwx ~/Documents/grants"},
			Allow: []string{"chmod -R g+w ./shared", "chmod -R go-rwx /shared/lab/patient_data", "setfacl -R -x u:collab01 /shared/lab/x", "chmod g+w /shared/lab/notes.txt", "chown -R $(id -u) build/",
				"chmod -R 755 /tmp/site", "getfacl -R /shared/lab", "chmod -R u+w ~/proj-old"}},
	}
}

// sharedRoots hold storage other people rely on: a lab's or a team's
// shares, network and cluster filesystems, mounted drives. (Scratch
// filesystems, /scratch, are meant to be cleared by their owners.)
var sharedRoots = map[string]bool{"shared": true, "share": true, "data": true, "mnt": true, "media": true, "Volumes": true, "net": true, "nfs": true,
	"gpfs": true, "lustre": true, "project": true, "projects": true, "groups": true, "group": true, "lab": true, "labs": true, "storage": true,
	"archive": true, "nas": true, "tempZone": true, "pool": true, "datasets": true, "cluster": true,
	// servers' data mounts: database files and backups (/u01../u09 of
	// Oracle, /hana of SAP HANA, /sapmnt, /oradata), NFS exports, a NAS's
	// volumes
	"hana": true, "sapmnt": true, "oradata": true, "export": true, "exports": true, "backup": true, "backups": true, "volume1": true, "volume2": true, "san": true,
	// a cluster's software tree every user's jobs load (/sw/containers,
	// /software/modulefiles) and cloud file shares mounted on every node
	"sw": true, "software": true, "fsx": true, "efs": true}

// sharedRoot: name is a root of shared or server storage (sharedRoots,
// or a numbered data mount: /u01 … /u99, /data1, /disk2).
func sharedRoot(name string) bool {
	if sharedRoots[name] {
		return true
	}
	for _, pre := range []string{"u", "data", "disk", "vol"} {
		if n, ok := strings.CutPrefix(name, pre); ok && n != "" && len(n) <= 2 && strings.Trim(n, "0123456789") == "" {
			return true
		}
	}
	return false
}

// onSharedStorage reports whether p is a directory below a shared root,
// at least two levels down (/shared/lab/x, not /shared itself: that is
// the zone table's ask).
func onSharedStorage(p string) bool {
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	return len(parts) >= 3 && sharedRoot(parts[0]) && !strings.ContainsAny(p, "$*?")
}

func sharedDeleteRule() Rule {
	return Rule{ID: "core.zones:shared-delete", Mode: Deny, Tools: shellTools,
		Desc: "Deleting a whole tree on shared storage (/shared/lab/…, /data/…, /mnt/nas/…, /gpfs/…, /projects/…), however the line does it (rm -rf, perl remove_tree, shutil.rmtree, find -delete): other people's data, often with no backup the user controls",
		Match: func(e *Env) string {
			for _, tc := range e.Touches() {
				if tc.Effect != callfacts.PathRecursiveDelete || !outsideZone(tc.Zone) || !onSharedStorage(strings.TrimSuffix(tc.Path, "/*")) || callfacts.SharedCache(tc.Path) {
					continue // a folder, or everything in it (/u02/fra/PROD/*)
				}
				return tc.Via + " deletes " + tc.Path + " and everything under it, on storage others share"
			}
			return ""
		},
		Catch: []string{"perl -MFile::Path=remove_tree -e 'remove_tree(\"/shared/lab/projects/rnaseq-2023\")'", "rm -rf /data/cohort-2021/bams", "python3 -c \"import shutil; shutil.rmtree('/mnt/nas/team/archive')\"",
			"sudo rm -rf /gpfs/projects/genomics/old", "find /projects/lab42/tmp-runs -delete", "ruby -e 'require \"fileutils\"; FileUtils.rm_rf(Dir.glob(\"/u02/fra/PROD/*\"))'"},
		Allow: []string{"rm -rf ./data/old", "rm /shared/lab/me/notes.txt", "rm -rf /scratch/dev/run-17", "rm -rf /tmp/shared/x", "ls -R /shared/lab", "rm -rf /mnt/x"}}
}

// grantsWrite reports whether a widening gives write (or ownership).
func grantsWrite(c *Cmd) bool {
	switch c.Name {
	case "chown", "chgrp":
		return true
	case "setfacl":
		for _, a := range c.Args {
			for _, en := range strings.Split(strings.ToLower(a), ",") {
				if strings.Count(en, ":") >= 2 && strings.Contains(en[strings.LastIndexByte(en, ':'):], "w") {
					return true
				}
			}
		}
	case "chmod":
		if len(c.Pos) > 0 {
			m := c.Pos[0]
			if strings.Trim(m, "01234567") == "" && len(m) >= 3 {
				g := m[len(m)-2]
				return g == '2' || g == '3' || g == '6' || g == '7'
			}
			i := strings.IndexAny(m, "+=")
			return i >= 0 && strings.ContainsRune(m[i:], 'w')
		}
	}
	return false
}
