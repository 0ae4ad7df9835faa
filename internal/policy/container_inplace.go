package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// A container given a folder of the user's own data under home as a
// writable volume, and told to change what it is given in place or to
// clean it up (docker run -v ~/Embroidery:/designs img --in-place
// /designs, -v ~/beamtime:/data img --cleanup /data): the image's
// program rewrites or deletes the user's files through the mount, as
// sed -i or rm on them would; what it keeps is unknown. A read-only
// mount (:ro, readonly), a project or scratch folder, and a run without
// such an option stay allowed.

// inPlaceWords are options that make a program change or remove its input.
var inPlaceWords = map[string]bool{"--in-place": true, "--inplace": true, "--overwrite": true, "--cleanup": true, "--clean": true, "--delete": true, "--delete-input": true,
	"--remove": true, "--remove-source": true, "--purge": true, "--prune": true, "--replace": true, "--fix": true, "--rewrite": true, "--delete-originals": true, "--move": true}

func containerInPlaceRule() Rule {
	return cmdRule("core.zones:container-home-inplace", Ask, "A container given a folder of the user's data under home as a writable volume and an option to change it in place or clean it up (docker run -v ~/Scans:/data img --in-place /data, --cleanup, --overwrite, --delete): the image rewrites or deletes the user's files through the mount; read-only mounts and project or scratch folders stay allowed", []string{"docker", "podman", "nerdctl"},
		func(e *Env, c *Cmd) string {
			if c.Sub(0) != "run" && !(c.Sub(0) == "container" && c.Sub(1) == "run") {
				return ""
			}
			var homeMounts []string
			image := dockerRunOptions(c, func(k, v string) {
				if k != "-v" && k != "--volume" && k != "--mount" {
					return
				}
				src, ro := mountSource(k, v)
				if src == "" || ro {
					return
				}
				p := callfacts.NormPath(src, c.Dir, e.F.Home)
				if callfacts.ZoneOf(p, e.F.Home, e.F.Project) == callfacts.ZoneHomeData {
					homeMounts = append(homeMounts, homeRel(p, e.F.Home))
				}
			})
			if image == "" || len(homeMounts) == 0 {
				return ""
			}
			after := false
			for _, a := range c.Args {
				if !after {
					after = a == image
					continue
				}
				k, _, _ := strings.Cut(a, "=")
				if inPlaceWords[strings.ToLower(k)] {
					return c.Name + " gives " + image + " " + homeMounts[0] + " to change (" + a + "): the user's files are rewritten or deleted through the mount"
				}
			}
			return ""
		},
		[]string{"docker run --rm -v ~/Photos:/in ghcr.io/someone/exif-fixer --in-place /in", "podman run -v $HOME/Music:/music beets-tools/dedupe --delete /music", "docker run --rm -v ~/Scans:/data -w /data ocr/tool --overwrite .", "docker run -v /home/dev/Documents/notes:/n acme/md-lint --fix /n"},
		[]string{"docker run --rm -v ~/Photos:/in:ro -v \"$PWD\"/out:/out ghcr.io/someone/exif-fixer --in-place /in", "docker run --rm -v \"$PWD\":/src img --fix /src", "docker run --rm -v ~/Photos:/in ghcr.io/someone/exif-tool /in", "docker run --rm -v /tmp/scratch:/d img --cleanup /d", "docker run --rm --mount type=bind,src=$HOME/Scans,dst=/d,readonly img --overwrite /d", "docker exec app cleanup --delete"})
}

// mountSource: the host side of a -v or --mount value, and whether it
// is mounted read-only.
func mountSource(k, v string) (string, bool) {
	if k == "--mount" {
		src, ro := "", false
		for _, f := range strings.Split(v, ",") {
			kk, vv, _ := strings.Cut(f, "=")
			switch kk {
			case "src", "source":
				src = vv
			case "readonly", "ro":
				ro = vv == "" || vv == "true" || vv == "1"
			}
		}
		return src, ro
	}
	parts := strings.Split(v, ":")
	if len(parts) < 2 || !strings.HasPrefix(parts[0], "/") && !strings.HasPrefix(parts[0], "~") && !strings.HasPrefix(parts[0], "$") && !strings.HasPrefix(parts[0], ".") {
		return "", false // a named volume
	}
	ro := len(parts) > 2 && (strings.Contains(parts[2], "ro") && !strings.Contains(parts[2], "rw"))
	return parts[0], ro
}
