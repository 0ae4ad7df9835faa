package policy

import (
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Data the user or other people keep: home folders (~/Pictures,
// ~/Music) and shared storage (/mnt/nas/…, /media/…, /Volumes/…). Writing
// a new file there is everyday; replacing what is there — a truncate, a
// forced overwrite, a batch edited in place, a loop that moves results
// over the originals — loses the originals for good.

// sharedPath reports whether p lies below a shared root at least two
// levels down (/mnt/nas/masters/x.mov, /media/usb/x): a glob in the last
// part stands for the files it matches.
func sharedStorePath(p string) bool {
	if i := strings.IndexAny(p, "*?["); i >= 0 {
		dir := p[:i]
		if j := strings.LastIndexByte(dir, '/'); j >= 0 {
			dir = dir[:j] // /mnt/pacs/archive/2023/*/*.dcm: the folder before the first pattern
		}
		return onSharedStorage(dir + "/x")
	}
	return onSharedStorage(p)
}

// globbed reports whether p names files by a pattern: a batch.
func globbed(p string) bool { return strings.ContainsAny(p, "*?[") }

// forcedOutput: converters whose output is the last argument and an
// option that overwrites it without asking (ffmpeg -y).
var forcedOutput = map[string][]string{"ffmpeg": {"-y"}, "avconv": {"-y"}, "ffmpeg.exe": {"-y"}}

// mediaRewriters edit the files they are given in place: every argument
// is replaced by its edited self (mogrify, jpegoptim, optipng, mp3gain);
// exiftool only with -overwrite_original.
var mediaRewriters = map[string]bool{"mogrify": true, "jpegoptim": true, "optipng": true, "mp3gain": true, "aacgain": true, "rsgain": true, "pngcrush": true, "oxipng": true, "zopflipng": true, "exiftool": true, "normalize-audio": true, "mat2": true,
	// DICOM's header editor rewrites every image it is given (a .bak is
	// kept only without -nb)
	"dcmodify": true}

// exifRenames: exiftool told to set the files' name or folder
// ('-FileName<DateTimeOriginal', -Directory=DIR): each file it is given
// (every file of a folder) is renamed or moved, no copy kept under the
// old name ('-TestName<…' only prints what it would do; with -o DIR the
// renamed files are copies).
func exifRenames(c *Cmd) bool {
	for _, a := range c.Args {
		if a == "-o" || a == "-out" {
			return false // the renamed copies go to -o's folder, the originals stay
		}
	}
	for _, a := range c.Args {
		a = strings.ToLower(strings.TrimLeft(a, "-"))
		for _, t := range []string{"filename", "directory"} {
			if r, ok := strings.CutPrefix(a, t); ok && (strings.HasPrefix(r, "<") || strings.HasPrefix(r, "=")) {
				return true
			}
		}
	}
	return false
}

// rewriterTargets are the files c edits in place ("" for none): magick
// mogrify and gm mogrify name the editor as their first argument.
func rewriterTargets(c *Cmd) []string {
	pos := c.Pos
	if c.Has("-path") && (c.Name == "mogrify" || c.Name == "magick" || c.Name == "gm") {
		// mogrify -path DIR writes each result into DIR and leaves the
		// originals as they were: a copy, not an edit in place
		return nil
	}
	switch {
	case (c.Name == "magick" || c.Name == "gm") && sub(c) == "mogrify":
		pos = pos[1:]
	case c.Has("--replace-input"):
		// qpdf … --replace-input: the output replaces the file read
	case !mediaRewriters[c.Name]:
		return nil
	case c.OnlyReports():
		return nil // mat2 --show, exiftool's reads: it prints what the file holds (tools.txt reports=)
	case c.Name == "exiftool" && !c.Has("-overwrite_original", "-overwrite_original_in_place") && !exifRenames(c):
		return nil
	case c.Name == "mat2" && !c.Has("--inplace"):
		// mat2 writes NAME.cleaned.EXT beside the file; --show and
		// --list only print: the original stays unless --inplace
		return nil
	case c.Name == "pngcrush" && !c.Has("-ow"):
		return nil
	case c.Name == "oxipng" && c.Has("--out", "--stdout"), c.Name == "jpegoptim" && c.Has("-d", "--dest", "--stdout"):
		return nil
	}
	var out []string
	for _, p := range pos {
		if !strings.HasPrefix(p, "--") && (strings.ContainsAny(p, "/*?") || strings.Contains(p, ".") && callfacts.PathLike(p)) {
			out = append(out, p)
		}
	}
	return out
}

func homeSharedOverwriteRules() []Rule {
	names := []string{"ffmpeg", "avconv", "ffmpeg.exe", "magick", "gm", "qpdf"}
	for n := range mediaRewriters {
		names = append(names, n)
	}
	return []Rule{
		{ID: "core.zones:shared-overwrite", Mode: Deny, Tools: shellTools, On: On(FactTouch, names...),
			Desc: "Files on shared storage (/mnt/nas/…, /media/…, /Volumes/…, /shared/…) emptied or replaced: truncated (truncate -s 0 /mnt/nas/masters/*.mxf), overwritten by a batch, or written over by an output option that skips the question (ffmpeg -y … /mnt/nas/masters/x.mov): other people's originals, often with no copy the user controls",
			Match: func(e *Env) string {
				for _, tc := range e.Touches() {
					if !outsideZone(tc.Zone) || !sharedStorePath(tc.Path) {
						continue
					}
					if tc.Effect == callfacts.PathTruncate || tc.Effect == callfacts.PathOverwrite && globbed(tc.Path) {
						return tc.Via + " " + string(tc.Effect) + "s " + tc.Path + ", on storage others share"
					}
				}
				for i := range e.F.Commands {
					c := &e.F.Commands[i]
					if opts := forcedOutput[c.Name]; opts != nil && c.Has(opts...) && len(c.Pos) > 0 {
						if p := e.abs(c, c.Pos[len(c.Pos)-1]); sharedStorePath(p) && outsideZone(callfacts.ZoneOf(p, e.F.Home, e.F.Project)) {
							return c.Name + " " + strings.Join(opts, " ") + " overwrites " + p + ", on storage others share, without asking"
						}
					}
					for _, t := range rewriterTargets(c) {
						if p := e.abs(c, t); sharedStorePath(p) && outsideZone(callfacts.ZoneOf(p, e.F.Home, e.F.Project)) {
							return c.String() + " rewrites " + p + " in place, on storage others share"
						}
					}
				}
				return ""
			},
			Catch: []string{"truncate -s 0 /mnt/nas/masters/*.mxf", "ffmpeg -y -i out/ep01_fix.mp4 -c copy /mnt/nas/masters/ep01_master.mov", ": > /media/usb/footage/day1.mov", "magick mogrify -strip /Volumes/Photos/2023/*.jpg",
				"for f in /mnt/share/audio/*.wav; do sox \"$f\" -r 16000 \"$f.t.wav\" && mv \"$f.t.wav\" \"$f\"; done", "jpegoptim --max=70 /shared/lab/figures/*.jpg"},
			Allow: []string{"ffmpeg -i /mnt/nas/masters/ep01.mov -c copy out/ep01.mp4", "ffmpeg -i in.mp4 /mnt/nas/masters/new_cut.mov", "ffmpeg -y -i in.mp4 out/x.mp4", "truncate -s 0 build/log.txt",
				"cp out/ep05.mov /mnt/nas/masters/ep05.mov", "magick mogrify -resize 50% build/thumbs/*.jpg", "ls /mnt/nas/masters/*.mxf"}},
		{ID: "core.zones:home-data-rewrite", Mode: Deny, Tools: shellTools, On: On(FactTouch, names...),
			Desc: "The user's files under home replaced in bulk: a batch edited in place (magick mogrify -resize 50% ~/Pictures/2024/*.jpg, jpegoptim ~/Photos/*.jpg), or a loop that writes results over the originals (for f in ~/Music/*.wav; do sox … && mv tmp \"$f\"; done): the originals are gone, resized or re-encoded, with no undo",
			Match: func(e *Env) string {
				for _, tc := range e.Touches() {
					if tc.Zone == callfacts.ZoneHomeData && globbed(tc.Path) && (tc.Effect == callfacts.PathOverwrite || tc.Effect == callfacts.PathTruncate) {
						return tc.Via + " " + string(tc.Effect) + "s " + homeRel(tc.Path, e.F.Home) + ", the user's own files, in bulk"
					}
				}
				for i := range e.F.Commands {
					c := &e.F.Commands[i]
					if e.dryRun(c) {
						continue // jpegoptim -n, oxipng --pretend: it only says what it would do
					}
					for _, t := range rewriterTargets(c) {
						// a batch: a glob, a loop's files, a folder (one photo
						// edited in place is the user's to ask for)
						if p := e.abs(c, t); callfacts.ZoneOf(p, e.F.Home, e.F.Project) == callfacts.ZoneHomeData && (globbed(p) || !strings.Contains(path.Base(p), ".")) {
							return c.String() + " rewrites " + homeRel(p, e.F.Home) + " in place, the user's own files"
						}
					}
				}
				return ""
			},
			Catch: []string{"magick mogrify -resize 50% ~/Pictures/2024/*.jpg", "for f in ~/Music/stems/*.wav; do sox \"$f\" -r 16000 -b 16 \"$f.tmp.wav\" && mv \"$f.tmp.wav\" \"$f\"; done", "jpegoptim --max=60 ~/Photos/trip/*.jpg",
				"exiftool -all= -overwrite_original ~/Pictures/2023", "mogrify -format png -quality 80 ~/Desktop/scans/*.tif", "truncate -s 0 ~/Documents/logs/*.log", "for f in ~/Documents/*.pdf; do qpdf --linearize \"$f\" --replace-input; done"},
			Allow: []string{"magick mogrify -resize 50% build/thumbs/*.jpg", "cp ~/Pictures/2024/*.jpg build/ && mogrify -resize 50% build/*.jpg", "for f in ~/Music/stems/*.wav; do sox \"$f\" -r 16000 \"out/$(basename \"$f\")\"; done",
				"exiftool ~/Pictures/2024/a.jpg", "jpegoptim --max=80 ~/Pictures/2024/a.jpg", "magick ~/Pictures/a.jpg -resize 50% out/a.jpg", "jpegoptim --dest=out ~/Photos/a.jpg", "mogrify -path /tmp/small -resize 50% ~/Pictures/2024/*.jpg"}},
	}
}
