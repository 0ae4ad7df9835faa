package policy

import (
	"fmt"
	"path"
	"strings"
)

// A configuration file named for production (config/billing-prod.properties,
// conf/production.ini, settings/live.toml, /etc/app/prd.cfg) is where
// the production database password, the payment provider's key and the
// signing secret of a service sit in clear. Printed whole into the
// conversation by a reader that shows content, it asks, as a file named
// for a secret does (secret_named_anywhere.go); a search for one
// setting, a count, a listing or a checksum reads nothing out. Not
// settings of this kind: build and bundler configs (tsconfig.prod.json,
// webpack.prod.js), compose files, CI workflows and deploy manifests
// (their secrets are references: ${{ secrets.X }}, secretKeyRef), web
// server configs, examples and templates, and files in test folders.

// prodNameWords: a part of a file's name (split at . _ -) that names
// the production environment.
var prodNameWords = map[string]bool{"prod": true, "production": true, "prd": true, "live": true}

// prodConfigExts: settings formats whose lines are keys and values.
var prodConfigExts = map[string]bool{".properties": true, ".cfg": true, ".conf": true, ".ini": true, ".json": true, ".yaml": true, ".yml": true,
	".toml": true, ".env": true}

// prodNameNot: parts of a name that make it a build, bundler, container,
// CI, deploy or web server file, or a list, not an application's
// settings.
var prodNameNot = map[string]bool{"tsconfig": true, "jsconfig": true, "webpack": true, "vite": true, "babel": true, "eslint": true, "eslintrc": true,
	"jest": true, "tslint": true, "prettier": true, "angular": true, "rollup": true, "esbuild": true, "docker": true, "compose": true,
	"dockerfile": true, "workflow": true, "pipeline": true, "ci": true, "build": true, "deploy": true, "deployment": true, "release": true,
	"package": true, "kustomization": true, "manifest": true, "nginx": true, "apache": true, "httpd": true, "caddy": true, "traefik": true,
	"haproxy": true, "site": true, "vhost": true, "service": true, "ingress": true, "hpa": true, "cronjob": true, "logging": true, "log4j": true,
	"log4j2": true, "logback": true, "logrotate": true, "sitemap": true, "robots": true, "firebase": true, "vercel": true, "netlify": true,
	"cors": true, "csp": true, "routes": true, "features": true, "flags": true, "i18n": true, "locale": true, "schedule": true,
	"checklist": true, "runbook": true, "inventory": true, "hosts": true, "metrics": true, "dashboard": true, "alerts": true, "rules": true,
	"tfplan": true, "plan": true, "state": true, "dump": true, "export": true, "report": true, "backup": true, "snapshot": true, "output": true,
	"results": true, "data": true, "diff": true}

// prodDirsNot: folders of CI, deploy manifests and infrastructure code:
// their files reference secrets by name.
var prodDirsNot = []string{"/.github/", "/.gitlab/", "/.circleci/", "/.buildkite/", "/.azure-pipelines/", "/k8s/", "/kubernetes/", "/manifests/",
	"/helm/", "/charts/", "/terraform/", "/nginx/", "/environments/", "/dashboards/", "/grafana/dashboards/", "/alerts/", "/locales/",
	"/downloads/", "/tmp/", "/inventory/", "/inventories/", "/group_vars/", "/host_vars/"} // a download or a scratch file is data, not a service's settings

// prodConfigNamed: p is a settings file named for production.
func prodConfigNamed(p string) bool {
	b := strings.ToLower(path.Base(p))
	if !prodConfigExts[path.Ext(b)] || strings.ContainsAny(b, "*?[") {
		return false
	}
	parts := strings.FieldsFunc(b, func(r rune) bool { return r == '.' || r == '_' || r == '-' })
	hit := false
	for _, w := range parts {
		if credNameNot[w] || prodNameNot[w] || strings.HasPrefix(w, "example") || strings.HasPrefix(w, "sample") {
			return false
		}
		hit = hit || prodNameWords[w] && (w != "live" || liveSettingsName(parts))
	}
	if !hit {
		return false
	}
	lp := strings.ToLower(p)
	if strings.Contains(lp, "/secrets/") && (strings.HasSuffix(b, ".yaml") || strings.HasSuffix(b, ".yml") || strings.HasSuffix(b, ".json")) {
		return false // secrets/prod.yaml: sops keeps such files encrypted
	}
	for _, d := range credDirsNot {
		if strings.Contains(lp, d) {
			return false
		}
	}
	for _, d := range prodDirsNot {
		if strings.Contains(lp, d) {
			return false
		}
	}
	return true
}

// prodConfigNotWhole: readers that print part of a file by what the
// line asks (a search's matches, a script's chosen fields), not the
// whole settings file.
var prodConfigNotWhole = map[string]bool{"grep": true, "egrep": true, "fgrep": true, "rg": true, "ag": true, "python": true, "python3": true,
	"node": true, "ruby": true, "perl": true, "php": true}

// liveSettingsName: "live" names the production environment only in a
// settings file's name (live.toml, application-live.yml, config.live.json),
// not a feature's (live-reload.json, livestream.conf).
func liveSettingsName(parts []string) bool {
	if len(parts) == 2 {
		return parts[0] == "live"
	}
	for _, w := range parts {
		switch w {
		case "application", "appsettings", "config", "settings", "app", "env", "parameters":
			return true
		}
	}
	return false
}

func prodConfigPrintRule() Rule {
	return Rule{ID: "core.secrets:print-prod-config", Mode: Ask, Reads: true, Tools: credentialReaders,
		On:   On(FactPath),
		Desc: "Printing a settings file named for production (config/billing-prod.properties, conf/production.ini, /etc/app/live.toml) into the conversation: its database passwords and service keys sit in clear; a search for one setting, counts, listings, build configs (tsconfig.prod.json), compose files, CI workflows, deploy manifests and templates stay allowed",
		Match: func(e *Env) string {
			for _, p := range e.F.Paths {
				if p.Op != OpRead || !contentPrinters[p.Via] || prodConfigNotWhole[p.Via] {
					continue // a search prints its lines (core.secrets:grep-secret-key judges a credential's key); a script prints what its code picks
				}
				if !prodConfigNamed(p.Path) || !printedRead(e, p.Via) {
					continue
				}
				if usesSecretQuietly(e, p.Via) || reducedOutput(e, p.Via) || nonSecretColumns(e, p.Via, p.Path) || namesOnlyRead(e, p.Via) || columnsDownstream(e, p.Via, p.Path) || plainFieldSearch(e, p.Via, p.Path) {
					continue
				}
				return fmt.Sprintf("%s prints %s, the production settings (with their passwords and keys), into the conversation", p.Via, homeRel(p.Path, e.F.Home))
			}
			return ""
		},
		Catch: []string{"cat config/billing-prod.properties", "less conf/production.ini", "sudo cat /etc/ledger/prd.cfg", "jq . config/live.json", "head -50 settings/prod.toml", "bat src/main/resources/payments-production.yml"},
		Allow: []string{"cat tsconfig.prod.json", "cat docker-compose.prod.yml", "cat .github/workflows/deploy-prod.yml", "cat config/prod.example.yml", "grep -n timeout config/billing-prod.properties", "wc -l config/billing-prod.properties", "ls config/", "cat config/dev.properties", "cat k8s/prod/deployment.yaml", "cat nginx-prod.conf"}}
}
