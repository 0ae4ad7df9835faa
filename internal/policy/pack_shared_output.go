package policy

import (
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// overwriteFlags tell a program to replace an output that exists (ncks -O,
// cdo -O, ogr2ogr -overwrite, tool --clobber), spelled the common ways.
var overwriteFlags = []string{"-O", "--overwrite", "-overwrite", "--clobber", "-clobber", "--replace", "--force-overwrite"}

// sharedOutputRule: a program warden has no table for, given input paths
// then an output path (the "in … out" convention of converters and data
// tools: ncks in.nc out.nc, cdo op in*.nc out.nc, gdal_translate in out),
// writing a file on shared storage (/gpfs, /projects, /mnt/nas…). With an
// overwrite option, or the output also an input (rewritten in place), the
// file others use is replaced → deny; a converter's output there asks.
// Scratch and temp folders are the user's own.
func sharedOutputRules() []Rule {
	return []Rule{{ID: "core.zones:shared-output", Mode: Deny, Tools: shellTools,
		Desc: "A program with no table writing its output over a file on shared storage (/gpfs, /lustre, /projects, /mnt/nas, /data…) with an overwrite option (-O, --overwrite, --clobber) or over its own input (rewritten in place): it replaces data others use",
		Match: func(e *Env) string {
			if why, replace := sharedOutput(e); replace {
				return why
			}
			return ""
		},
		Catch: []string{"ncks -O --ppc default=3 /gpfs/proj/shared/cmip6/tas_day.nc /gpfs/proj/shared/cmip6/tas_day.nc", "cdo -O mergetime /gpfs/proj/shared/era5/t2m_*.nc /gpfs/proj/shared/era5/t2m_1979.nc",
			"h5repack /data/lab/obs/argo.h5 /data/lab/obs/argo.h5", "imgtool --overwrite scans/a.tif /mnt/nas/archive/scans/a.tif"},
		Allow: []string{"nccopy -k nc4 -d 4 /gpfs/proj/shared/era5/t2m.nc /lustre/scratch/dev/t2m_c4.nc", "gdal_translate -srcwin 0 0 512 512 /mnt/rasterstore/ortho_2022/mosaic.tif /tmp/crop.tif",
			"ncks -O in.nc out.nc", "ncdump -h /gpfs/proj/shared/cmip6/tas_day.nc", "cdo -O mergetime /gpfs/proj/shared/era5/t2m_*.nc ./t2m_all.nc", "h5diff /data/lab/a.h5 /data/lab/b.h5"}},
		{ID: "core.zones:shared-convert", Mode: Ask, Tools: shellTools,
			Desc: "A converter with no table (its name says so: gdal_translate, x2y, …merge, …export) writing its output file on shared storage: it may replace a file others use",
			Match: func(e *Env) string {
				if why, replace := sharedOutput(e); why != "" && !replace {
					return why
				}
				return ""
			},
			Catch: []string{"otb_translate -srcwin 0 0 512 512 /tmp/test.tif /mnt/rasterstore/ortho_2022/mosaic.tif", "pdf2ps report.pdf /projects/lab/shared/report.ps", "tiffmerge a.tif b.tif /data/lab/maps/all.tif"},
			Allow: []string{"gdal_translate in.tif /tmp/out.tif", "pdf2ps report.pdf out/report.ps", "gdal_translate /mnt/nas/maps/a.tif ./a.png", "tiffmerge a.tif b.tif /scratch/dev/all.tif"}}}
}

// sharedOutput: the first program of the line with no table whose last
// path argument, after at least one input, is a file on shared storage;
// replace when an overwrite option or the output as an input says the
// file is replaced, else only a converter's name counts.
func sharedOutput(e *Env) (why string, replace bool) {
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if strings.ContainsAny(c.Name, "/$") || callfacts.Known(c.Name) || e.dryRun(c) || onlyHelp(c) {
			continue
		}
		var ps []string
		for _, p := range e.F.Paths {
			if p.Via == c.Name && p.Op == callfacts.OpArg {
				ps = append(ps, p.Path)
			}
		}
		if len(ps) == 0 || len(c.Pos) < 2 || !sharedFile(ps[len(ps)-1]) || path.Base(c.Pos[len(c.Pos)-1]) != path.Base(ps[len(ps)-1]) {
			continue // the output is the last operand, after an input
		}
		out := ps[len(ps)-1]
		inPlace := false
		for _, p := range ps[:len(ps)-1] {
			inPlace = inPlace || p == out
		}
		if c.Has(overwriteFlags...) || inPlace {
			return c.Name + " writes its output over " + out + ", a file on storage others share: " + c.String(), true
		}
		if converterName(c.Name) {
			return c.Name + " writes its output to " + out + ", on storage others share: " + c.String(), false
		}
	}
	return "", false
}

// sharedFile: p is a file (it has an extension) below a shared root, not
// in a scratch or temp folder, and no glob.
func sharedFile(p string) bool {
	return onSharedStorage(p) && path.Ext(p) != "" && !ownScratch(p)
}

// converterName: the program's name says it turns one file into another
// (gdal_translate, ogr2ogr, pdf2ps, convert, ffmpeg-style transcode).
func converterName(n string) bool {
	l := strings.ToLower(n)
	for _, w := range []string{"translate", "convert", "merge", "warp", "export", "transcode"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	i := strings.IndexByte(l, '2')
	return i > 0 && i < len(l)-1 && l[i-1] >= 'a' && l[i-1] <= 'z' && l[i+1] >= 'a' && l[i+1] <= 'z'
}
