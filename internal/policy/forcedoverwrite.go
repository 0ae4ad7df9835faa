package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// The zone table allows a write to home data (a download, a new file,
// an export the user asked for): whether a file is there already is not
// in the line. An explicit overwrite option is: the tool is told to
// replace what is at its output, so a file of the user's that is there
// (a survey's final ortho, a show file) is lost. Only options that mean
// "replace the output" count: -overwrite/--overwrite everywhere (GDAL,
// many converters), -y for ffmpeg's family, -f/--force for the copying
// tools (cp, mv, install). Elsewhere -y and -f mean other things.
var overwriteOpts = map[string]bool{"-overwrite": true, "--overwrite": true, "--force-overwrite": true, "--clobber": true}

var overwriteYes = map[string]bool{"ffmpeg": true, "avconv": true}

// outputFirst name their output before their input (ogr2ogr DST SRC).
var outputFirst = map[string]bool{"ogr2ogr": true}

var overwriteForce = map[string]bool{"cp": true, "mv": true, "install": true}

// forcedOverwrite: c is told to overwrite its output and the output (a
// path c writes, or its last operand) is in home data; "" otherwise.
func forcedOverwrite(e *Env, c *Cmd) string {
	forced := false
	for _, f := range c.Flags {
		if overwriteOpts[f] || overwriteYes[c.Name] && f == "-y" || overwriteForce[c.Name] && (f == "-f" || f == "--force") {
			forced = true
		}
	}
	if !forced || len(c.Pos) == 0 && outputOptValue(c) == "" {
		return ""
	}
	out := c.Pos[len(c.Pos)-1]
	if outputFirst[c.Name] {
		out = c.Pos[0]
	}
	if o := outputOptValue(c); o != "" {
		out = o // osmium cat --overwrite -o ~/osm/x.pbf in.osm: the output option names it, not the last operand
	}
	if strings.HasPrefix(out, "-") || strings.Contains(out, "://") {
		return ""
	}
	p := e.abs(c, out)
	if callfacts.ZoneOf(p, e.F.Home, e.F.Project) != callfacts.ZoneHomeData {
		return ""
	}
	return c.Name + " is told to overwrite its output " + homeRel(p, e.F.Home) + ", a file of the user's home data: " + c.String()
}

func forcedOverwriteRule() Rule {
	return Rule{ID: "core.zones:forced-overwrite", Mode: Ask, Tools: shellTools, On: On(0, "ffmpeg", "avconv", "cp", "mv", "install").OrText("overwrite", "clobber"), // the options, or the programs whose -y/-f they are
		Desc: "A tool told to overwrite its output (-overwrite, --overwrite, ffmpeg -y, cp/mv -f) where the output is in home data: the user's file there is replaced; without the option the zone table allows the write",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				if why := forcedOverwrite(e, &e.F.Commands[i]); why != "" {
					return why
				}
			}
			return ""
		},
		Catch: []string{"gdalwarp -overwrite -t_srs EPSG:3857 in.tif ~/Surveys/job1/final.tif", "ffmpeg -y -i cut.mp4 ~/Videos/wedding/final.mp4", "cp -f build/report.pdf ~/Documents/report.pdf", "ogr2ogr -overwrite ~/GIS/parcels.gpkg parcels.shp"},
		Allow: []string{"gdalwarp -overwrite in.tif out/final.tif", "ffmpeg -i cut.mp4 ~/Videos/new.mp4", "cp build/report.pdf ~/Documents/report-v2.pdf", "ffmpeg -y -i a.mp4 /tmp/a.mp4", "cp -f a.txt b.txt"}}
}

// overwriteOutputOpts name a tool's output file; with one on the line the
// overwrite option is about that file, wherever the operands are.
var overwriteOutputOpts = []string{"-o", "--output", "--out", "--output-file", "--outfile"}

// outputOptValue is the file c's output option names ("" for none).
func outputOptValue(c *Cmd) string {
	for _, o := range overwriteOutputOpts {
		if v := optValue(c, o); v != "" {
			return v
		}
	}
	return ""
}
