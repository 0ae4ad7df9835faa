package policy

import (
	"slices"
	"strings"
)

// Loaders that replace what they load into: a GIS or dump loader told to
// overwrite (ogr2ogr -overwrite, osm2pgsql --create, pg_restore --clean,
// mongorestore --drop) drops the table or collection first; a generator
// told to drop (shp2pgsql -d, raster2pgsql -d, pg_dump --clean) prints
// DROP TABLE for the client it feeds (shp2pgsql -d … | psql -h …). On a
// database named for production that is denied, on another server it
// asks; on this machine or a dev or test database it is the developer's
// own, and a generator feeding one (shp2pgsql … | psql -d gis_dev) runs
// statements of a known kind, not a hidden script.

// sqlGenerators print SQL for a client, with the options that make it
// drop what it loads into first.
var sqlGenerators = map[string][]string{"shp2pgsql": {"-d"}, "raster2pgsql": {"-d"}, "pg_dump": {"-c", "--clean"}, "pgsql2shp": nil,
	"mysqldump": {"--add-drop-database"}, "ogr2ogr": {"-overwrite"}, "csvsql": nil, "sqlite3": nil}

// directLoaders write into a database themselves, with their replace
// options.
var directLoaders = map[string][]string{"ogr2ogr": {"-overwrite", "OVERWRITE=YES"}, "osm2pgsql": {"--create", "-c", "--drop"}, "pg_restore": {"-c", "--clean"},
	"mongorestore": {"--drop"}, "mysqlimport": {"--delete", "-d"}, "imposm": {"-overwritecache", "-deployproduction"}, "shp2pgsql": nil}

// generatorOf is the SQL generator c reads on its input ("" for none).
func generatorOf(c *Cmd) string {
	g, ok := strings.CutPrefix(c.Stdin, "| ")
	if !ok {
		return ""
	}
	if _, known := sqlGenerators[g]; known {
		return g
	}
	return ""
}

// replaces reports whether c (a loader) or the generator feeding it is
// told to drop first.
func replaces(e *Env, c *Cmd) string {
	if opts, ok := directLoaders[c.Name]; ok {
		for _, a := range c.Args {
			for _, o := range opts {
				if a == o || strings.EqualFold(a, o) {
					return c.Name + " " + a
				}
			}
		}
		return ""
	}
	g := generatorOf(c)
	if g == "" {
		return ""
	}
	for i := range e.F.Commands {
		u := &e.F.Commands[i]
		if u.Name != g {
			continue
		}
		for _, o := range sqlGenerators[g] {
			if u.Has(o) {
				return g + " " + o + " | " + c.Name
			}
		}
	}
	return ""
}

// loaderTarget: "prod", "remote", or "" (this machine, a dev or test
// database, or a server the line does not name).
func loaderTarget(e *Env, c *Cmd) (string, string) {
	return loaderTargetOf(e, c, false)
}

// loaderTargetOf is loaderTarget; inputs: the files a restore reads
// (pg_restore … /tmp/odoo_prod.dump) name no target.
func loaderTargetOf(e *Env, c *Cmd, inputs bool) (string, string) {
	words := append([]string{}, c.Args...)
	if m, _ := prodMarkerOf(e, c); m != "" {
		return "prod", m
	}
	for _, w := range words {
		if strings.HasPrefix(w, "-") || inputs && slices.Contains(c.Pos, w) {
			continue
		}
		for _, n := range sqlWordNames(w) {
			if prodWord.MatchString(n) {
				return "prod", w
			}
		}
	}
	if n := sqlDBName(e, c); n != "" && prodWord.MatchString(n) {
		return "prod", n
	}
	for _, w := range words {
		for _, m := range sqlConnHost.FindAllStringSubmatch(w, -1) {
			if !localServer(m[1]) && !isLocalEndpoint(m[1]) {
				return "remote", m[1]
			}
			return "", "" // PG:"host=localhost dbname=gis_dev": this machine
		}
	}
	h := ""
	if c.Name == "osm2pgsql" || c.Name == "imposm" {
		// osm2pgsql -H/--host is the server; its -S is the style file
		// (-S openstreetmap-carto.style), not a server as for sqlcmd
		if h = optValue(c, "-H"); h == "" {
			h = optValue(c, "--host")
		}
	} else if h = sqlServer(c); h == "" {
		h = optValue(c, "-H")
	}
	if h != "" && !strings.HasPrefix(h, "/") && !localServer(h) {
		return "remote", h
	}
	return "", ""
}

// restoresInto: a restore tool writing into a database (pg_restore -d,
// mongorestore), not listing a dump's contents.
func restoresInto(c *Cmd) bool {
	switch c.Name {
	case "pg_restore":
		return (c.Has("-d", "--dbname") || optValue(c, "--dbname") != "" || optValue(c, "-d") != "") && !c.Has("-l", "--list")
	case "mongorestore":
		return !c.Has("--dryRun")
	}
	return false
}

func loaderRules() []Rule {
	names := []string{"psql", "mysql", "mariadb"}
	for n := range directLoaders {
		names = append(names, n)
	}
	judge := func(e *Env, c *Cmd) (string, string) {
		if onlyHelp(c) || e.dryRun(c) {
			return "", ""
		}
		r := replaces(e, c)
		if r == "" {
			// a dump restored into a production or shared database
			// without --clean still writes its rows and objects there
			if !restoresInto(c) {
				return "", ""
			}
			if where, named := loaderTargetOf(e, c, true); where != "" {
				return "ask", c.Name + " restores a dump into " + named
			}
			return "", ""
		}
		where, named := loaderTarget(e, c)
		switch where {
		case "prod":
			return "deny", r + " drops and reloads tables on a database named for production (" + named + ")"
		case "remote":
			return "ask", r + " drops and reloads tables on the server " + named
		}
		return "", ""
	}
	fire := func(want string) func(e *Env, c *Cmd) string { return atLevel(judge, want) }
	return []Rule{
		cmdRule("external.systems:loader-replace-prod", Deny, "A loader told to replace what it loads into (ogr2ogr -overwrite, osm2pgsql --create, pg_restore --clean, mongorestore --drop, shp2pgsql -d | psql) on a database named for production: its tables are dropped and reloaded", names,
			fire("deny"),
			[]string{`ogr2ogr -f PostgreSQL PG:"host=gis-prod.internal dbname=gis user=gisadmin" data/parcels.shp -nln public.parcels -overwrite`, `shp2pgsql -d -s 4326 data/roads.shp public.roads | psql -h gis-prod.internal -d gis`,
				`raster2pgsql -d -t 256x256 dem/*.tif public.dem | psql -h db.example.com -d gis_production`, `pg_restore --clean -h db.example.com -d shop_prod backups/x.dump`, `mongorestore --drop --uri mongodb://prod-mongo.example.com/app dump/`},
			[]string{`ogr2ogr -f PostgreSQL PG:"host=localhost dbname=gis_dev" data/parcels.shp -overwrite`, `shp2pgsql -s 4326 data/roads.shp public.roads | psql -h gis-prod.internal -d gis`,
				`ogr2ogr -f GPKG out/x.gpkg data/parcels.shp -overwrite`, `pg_restore -h db.example.com -d shop_prod --list backups/x.dump`}),
		cmdRule("external.systems:loader-replace", Ask, "A loader told to replace what it loads into (ogr2ogr -overwrite, osm2pgsql --create, pg_restore --clean, shp2pgsql -d | psql) on a server that is not this machine", names,
			fire("ask"),
			[]string{`ogr2ogr -f PostgreSQL PG:"host=gis-staging.internal dbname=gis" data/zoning.gpkg -nln staging.zoning -overwrite`, `shp2pgsql -d data/roads.shp roads | psql -h gis.example.com -d gis`,
				`osm2pgsql --create -H osm.example.com -d osm region.osm.pbf`},
			[]string{`ogr2ogr -f PostgreSQL PG:"host=gis-staging.internal dbname=gis" data/zoning.gpkg -nln staging.zoning -append`, `osm2pgsql --create -d osm_dev region.osm.pbf`,
				`shp2pgsql -d data/roads.shp roads | psql -d gis_dev`}),
	}
}
