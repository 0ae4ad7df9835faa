package policy

import (
	"path"
	"strings"
)

// The project's config files of the services it talks to (s27). A
// project that integrates with a vendor's system keeps that link's
// settings in its config folder, and they are the link's login:
//
//   - NAME.env (config/robot_gateway.env, deploy/payments.env): an env
//     file by docker's env_file convention, the same thing as .env.NAME
//     (which the name tables already read);
//   - a settings file in a config folder named for the role of the link
//     it configures (config/hl7_listener.properties,
//     conf/sms_gateway.yml, config/erp-connector.ini): a gateway, a
//     listener, a connector, a bridge or an adapter holds the other
//     side's password or key.
//
// App settings with no secret (tsconfig.json, logging.ini, pytest.ini,
// setup.cfg, mime types) have neither shape, and examples, templates
// and test fixtures stay allowed. Printed whole it asks through
// core.secrets:print-credential-holder (secret_toolfile.go).

// linkRoleWords: the last word of a config file's name that says it
// configures the project's link to another system.
var linkRoleWords = map[string]bool{"gateway": true, "gw": true, "listener": true, "connector": true, "bridge": true, "adapter": true,
	"integration": true, "interface": true, "uplink": true, "relay": true, "broker": true}

// envFileNot: NAME.env files that are no service's settings.
var envFileNot = map[string]bool{"example": true, "sample": true, "template": true, "dist": true, "default": true, "defaults": true, "test": true,
	"tests": true, "ci": true, "local": false, "public": true, "schema": true, "fake": true, "dummy": true, "mock": true}

// integrationConfigFile says which of the two shapes p has, "".
func integrationConfigFile(p string) string {
	b := strings.ToLower(path.Base(p))
	ext := path.Ext(b)
	if ext != ".env" && !toolSettingsExts[ext] || strings.ContainsAny(b, "*?[") || strings.HasPrefix(b, ".") || templateName(b) {
		return ""
	}
	lp := strings.ToLower(p)
	for _, d := range credDirsNot {
		if strings.Contains(lp, d) {
			return ""
		}
	}
	parts := strings.FieldsFunc(strings.TrimSuffix(b, ext), func(r rune) bool { return r == '.' || r == '_' || r == '-' })
	if len(parts) == 0 {
		return ""
	}
	for _, w := range parts {
		if credNameNot[w] || envFileNot[w] || strings.HasPrefix(w, "example") || strings.HasPrefix(w, "sample") {
			return ""
		}
	}
	if ext == ".env" {
		return "an env file (docker's env_file), which holds the service's secrets"
	}
	if len(parts) >= 2 && linkRoleWords[parts[len(parts)-1]] && secretSourceDirs[strings.ToLower(path.Base(path.Dir(p)))] {
		return "the settings of the project's link to another system, with its login"
	}
	if linkRoleWords[parts[len(parts)-1]] && strings.HasPrefix(p, "/etc/") && strings.Count(p, "/") >= 3 {
		return "an installed application's settings of its link to another system, with its login" // /etc/cad/interface.conf
	}
	return ""
}

// homeToolPEM: a .pem, .p12 or .pfx directly in a tool's folder in home
// (~/.config/cad/mdt_gateway.pem, ~/.acme/client.p12) that its name does
// not call a certificate: a client tool keeps the key it logs in with
// there, and a certificate says so (ca.pem, chain.pem, *_cert.pem).
func homeToolPEM(p, home string) bool {
	name, rest, ok := homeToolDir(p, home)
	name = strings.ToLower(name)
	if !ok || homeDotDirs["."+name] || toolDotDirsNot["."+name] || xdgToolsNot[name] || strings.Count(rest, "/") > 1 {
		return false
	}
	b := strings.ToLower(path.Base(rest))
	ext := path.Ext(b)
	if ext != ".pem" && ext != ".p12" && ext != ".pfx" || strings.ContainsAny(b, "*?[") {
		return false
	}
	for _, x := range strings.FieldsFunc(strings.TrimSuffix(b, ext), func(r rune) bool { return r == '.' || r == '_' || r == '-' }) {
		if certNameWords[x] && x != "client" && x != "admin" || credNameNot[x] || strings.HasPrefix(x, "cert") || strings.HasSuffix(x, "cert") || strings.HasSuffix(x, "ca") && len(x) <= 6 {
			return false
		}
	}
	return true
}

// pipedConfigFile: the config file a whole printer just before c in its
// pipe prints into c (cat sip2.conf | grep -i password), "": a search
// fed by cat selects the same lines a search of the file does.
func pipedConfigFile(e *Env, c *Cmd) string {
	i := slicesIndex(e, c)
	if i == 0 || len(c.Upstream) == 0 {
		return ""
	}
	prev := &e.F.Commands[i-1]
	if prev.Name != c.Upstream[len(c.Upstream)-1] || !wholePrinters[prev.Name] || prev.Name == "jq" || prev.Name == "yq" || len(prev.Pos) != 1 {
		return ""
	}
	if p := e.abs(prev, prev.Pos[0]); configFile(p) && !throwawayKey(p, e.F.Project) {
		return p
	}
	return ""
}
