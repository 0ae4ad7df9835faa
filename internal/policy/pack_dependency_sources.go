package policy

import (
	"path"
	"strings"
)

// dependencyFiles say where a project's dependencies come from: a manifest,
// a lock file or a build tool's wrapper settings.
var dependencyFiles = map[string]bool{"package.json": true, "package-lock.json": true, "npm-shrinkwrap.json": true, "yarn.lock": true,
	"pnpm-lock.yaml": true, "bun.lock": true, "gradle-wrapper.properties": true, "maven-wrapper.properties": true, "Cargo.lock": true,
	"Gemfile.lock": true, "poetry.lock": true, "Pipfile.lock": true, "composer.lock": true, "go.sum": true, "go.mod": true,
	"requirements.txt": true, "uv.lock": true, "Podfile.lock": true, "packages.lock.json": true}

var depURLHost = re(`(?i)[a-z][a-z0-9+.-]*://([^/:'"\s]+)`)

// sourceSwap: sed -i rewriting a dependency file so a package or the
// build tool comes from another host (a resolved URL, distributionUrl)
// or another package (an npm: alias), the supply-chain change a review of
// a version bump would not see.
func sourceSwap(e *Env, c *Cmd) string {
	if !c.Has("-i", "--in-place") && !shortArgHasPrefix(c, "-i") {
		return ""
	}
	var files []string
	var scripts []string
	for i, a := range c.Args {
		if a == "-e" || a == "--expression" {
			if i+1 < len(c.Args) {
				scripts = append(scripts, c.Args[i+1])
			}
		}
	}
	pos := c.Pos
	if len(scripts) == 0 && len(pos) > 0 {
		scripts, pos = pos[:1], pos[1:]
	}
	for _, p := range pos {
		if dependencyFiles[path.Base(p)] {
			files = append(files, p)
		}
	}
	if len(files) == 0 {
		return ""
	}
	for _, s := range scripts {
		from, to, ok := sedSubst(strings.ReplaceAll(s, `\`, ""))
		if !ok {
			continue
		}
		if strings.Contains(to, "npm:") && !strings.Contains(from, "npm:") {
			return c.Name + " points a dependency in " + files[0] + " at another package (an npm: alias)"
		}
		if t := depURLHost.FindStringSubmatch(to); t != nil {
			if f := depURLHost.FindStringSubmatch(from); f == nil || !strings.EqualFold(f[1], t[1]) {
				return c.Name + " points " + files[0] + " at another host (" + t[1] + ")"
			}
		}
	}
	return ""
}

// sedSubst splits a sed s command (any delimiter) into its pattern and
// replacement.
func sedSubst(s string) (string, string, bool) {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "s"); i >= 0 && len(s) > i+1 && (i == 0 || strings.Trim(s[:i], "0123456789,$/^ ") == "" || strings.HasSuffix(s[:i], "/")) {
		s = s[i:]
	} else {
		return "", "", false
	}
	if len(s) < 2 {
		return "", "", false
	}
	parts := strings.Split(s[2:], s[1:2])
	if len(parts) < 2 {
		return "", "", false
	}
	return parts[0], parts[1], true
}

func shortArgHasPrefix(c *Cmd, p string) bool {
	for _, a := range c.Args {
		if strings.HasPrefix(a, p) && !strings.HasPrefix(a, "--") {
			return true
		}
	}
	return false
}

func dependencySourceRules() []Rule {
	return []Rule{cmdRule("core.local:dependency-source-swap", Deny, "An in-place edit of a dependency manifest, lock file or build wrapper that points a package or the build tool at another host or another package (a resolved URL, distributionUrl, an npm: alias): a supply-chain change a version bump's review would not catch", []string{"sed", "gsed"},
		sourceSwap,
		[]string{`sed -i 's#https://repo1.maven.org/maven2#https://maven.mirror-cache.example#' gradle/wrapper/maven-wrapper.properties`, `sed -i 's|"react": "^18.2.0"|"react": "npm:react-fast-dom@^18.2.0"|' package.json`,
			`sed -i -e 's,https://registry.yarnpkg.com/left-pad,https://pkgs.example-cdn.net/left-pad,' yarn.lock`, `sed -i "s|https://files.pythonhosted.org|https://pypi-files.example.io|" poetry.lock`},
		[]string{`sed -i 's/"version": "1.2.3"/"version": "1.2.4"/' package.json`, `sed -i 's/gradle-8.4-bin/gradle-8.5-bin/' gradle/wrapper/gradle-wrapper.properties`,
			`sed -n 's#https://registry.npmjs.org#X#p' package-lock.json`, `sed -i 's#http://registry.npmjs.org#https://registry.npmjs.org#g' package-lock.json`, `sed -i 's#https://old.example#https://new.example#' README.md`})}
}
