package policy

import (
	"fmt"
	"strings"
)

// A running workload's environment picked out of its description (s26):
// docker inspect app | jq '.[0].Config.Env', kubectl get deploy api -o
// json | jq '.spec.template.spec.containers[].env', aws lambda
// get-function-configuration --query Environment.Variables, crictl
// inspect … | jq .info.config.envs, docker container inspect db | grep
// -A30 '"Env"'. Services get their database passwords and API keys
// through their environment, so the selection prints them into the
// conversation whatever the program: the reading is by the field the
// line selects (a jq/yq filter, a --query, --format or jsonpath, a grep
// with context after an Env key), not by the tool. The count, the names
// only (| length, keys, split("=")[0], .name), other fields (.State,
// .image) and a file's own fields (jq .env package.json) stay allowed.

// envFieldSel: a selector that names an environment field: env, Env,
// envs, Environment (AWS), or a container's environment.
var envFieldSel = re(`(?:^|[.\[{\s'"(/])(?:[Ee]nvs?|Environment|EnvironmentVariables)(?:\b|$)|container[A-Za-z]*\[[^\]]*\]\.environment\b`)

// envNamesOnly: the selector ends in the variables' names or a count.
var envNamesOnly = re(`(?:\.name|\bkeys(?:_unsorted)?|\blength|split\("="\)\s*\[0\]|\.Name|\btype|\bsort_by\(\.name\)\s*\|\s*map\(\.name\))\s*\]?\s*['"]?\s*\)?\s*\}?\s*['"]?$`)

// envSelectors: jq-like filters that read their input from a pipe.
var envSelectors = map[string]bool{"jq": true, "gojq": true, "jaq": true, "yq": true}

// envFileFeeders print a file or text, not a workload's description.
var envFileFeeders = map[string]bool{"cat": true, "head": true, "tail": true, "less": true, "bat": true, "echo": true, "printf": true, "type": true, "get-content": true}

// inlineEnvSelection: an option of c itself selects the environment
// (--query Environment.Variables, --format '{{.Config.Env}}', -o
// jsonpath='{…env}').
func inlineEnvSelection(c *Cmd) string {
	for i, a := range c.Args {
		v := ""
		switch {
		case strings.HasPrefix(a, "--query=") || strings.HasPrefix(a, "--format=") || strings.HasPrefix(a, "--output=jsonpath") || strings.HasPrefix(a, "-ojsonpath") || strings.HasPrefix(a, "-o=jsonpath") || strings.HasPrefix(a, "jsonpath=") || strings.HasPrefix(a, "go-template="):
			v = a
		case (a == "--query" || a == "--format" || a == "-o" || a == "--output" || a == "-f" && c.Sub(0) == "inspect") && i+1 < len(c.Args):
			v = c.Args[i+1]
		}
		// a field path (Environment.Variables, {.env}, value(….env)), not
		// an output format's name (--format env, -o dotenv)
		if v != "" && strings.ContainsAny(v, ".{[") && envFieldSel.MatchString(v) && !envNamesOnly.MatchString(strings.TrimSpace(v)) && !envOtherFields(v) {
			return v
		}
	}
	return ""
}

// envOtherFields: every match of envFieldSel in v goes on into fields
// of it that are no variables (--query 'Environment.{Status:Status,
// Version:AirflowVersion}', Environment.Status: a resource called an
// environment, its state and version picked).
func envOtherFields(v string) bool {
	ms := envFieldSel.FindAllStringIndex(v, -1)
	for _, m := range ms {
		rest := v[m[1]:]
		if !strings.HasPrefix(rest, ".") || envValueField.MatchString(rest) {
			return false
		}
	}
	return len(ms) > 0
}

// envValueField: a field past the environment that holds its values.
var envValueField = re(`(?i)variables|\benvs?\b|secret|password|passw|token|key|value|credential|conn|url|uri|config`)

// pipedSelector: the filter of a jq-like c, "" when it reads a file.
func pipedSelector(c *Cmd) string {
	if len(c.Upstream) == 0 || envFileFeeders[c.Upstream[len(c.Upstream)-1]] {
		return ""
	}
	for _, a := range c.Pos {
		if a == "e" || a == "eval" {
			continue
		}
		if len(c.Pos) > 2 {
			return "" // jq FILTER FILE…: a file's fields
		}
		return a
	}
	return ""
}

// grepEnvContext: a grep with lines after a match of an Env key prints
// the variables under it.
func grepEnvContext(c *Cmd) bool {
	if len(c.Upstream) == 0 || envFileFeeders[c.Upstream[len(c.Upstream)-1]] || !c.Has("-A", "-C", "--after-context", "--context") && !hasGlued(c, "-A", "-C") {
		return false
	}
	for _, a := range c.Pos {
		t := strings.Trim(a, `'"`)
		if t == "Env" || t == `"Env"` || t == "env:" || t == "Env:" || t == `"Env":` || t == "Environment" || t == "environment:" {
			return true
		}
	}
	return false
}

// psShowsEnv: ps with the BSD e option (ps eww -p 1234, ps auxe) prints
// each process's environment after its command; ps -e (every process,
// with a dash) does not.
func psShowsEnv(c *Cmd) bool {
	for _, a := range c.Args {
		if a == "" || strings.HasPrefix(a, "-") || !strings.Contains(a, "e") {
			continue
		}
		bsd := true
		for _, r := range a {
			if !strings.ContainsRune("aexuwwfjlvrTSchmnH", r) {
				bsd = false
				break
			}
		}
		return bsd
	}
	return false
}

// hasGlued: an option written with its value (-A30).
func hasGlued(c *Cmd, opts ...string) bool {
	for _, a := range c.Args {
		for _, o := range opts {
			if strings.HasPrefix(a, o) && len(a) > len(o) && a[len(o)] >= '0' && a[len(o)] <= '9' {
				return true
			}
		}
	}
	return false
}

func envFieldPrintRule() Rule {
	return Rule{ID: "core.secrets:print-workload-env", Mode: Ask, Reads: true, Tools: []string{"Bash", "PowerShell"},
		On:   On(0, "ps").OrText("Env", "env"),
		Desc: "Printing a running workload's environment picked out of its description (docker inspect app | jq '.[0].Config.Env', kubectl get deploy -o json | jq '..containers[].env', --query Environment.Variables, a grep -A under \"Env\"): services keep their passwords and API keys there; the count, the names only and other fields stay allowed",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				sel := ""
				switch {
				case envSelectors[c.Name]:
					if s := pipedSelector(c); s != "" && envFieldSel.MatchString(s) && !envNamesOnly.MatchString(strings.TrimSpace(s)) {
						sel = s
					}
				case c.Name == "ps":
					if psShowsEnv(c) {
						sel = "the e option: each process's environment"
					}
				case c.Name == "grep" || c.Name == "egrep" || c.Name == "rg":
					if grepEnvContext(c) {
						sel = "the lines under its Env key"
					}
				default:
					sel = inlineEnvSelection(c)
				}
				if sel == "" || c.Captured || consumedByPipe(e.F.Commands, i) || reducedDownstream(e, i) || redirected(e, c.Name) {
					continue
				}
				src := c.Name
				if len(c.Upstream) > 0 && (envSelectors[c.Name] || c.Name == "grep" || c.Name == "egrep" || c.Name == "rg") {
					src = c.Upstream[len(c.Upstream)-1]
				}
				return fmt.Sprintf("the line prints a workload's environment from %s (%s) into the conversation, where its passwords and keys are", src, sel)
			}
			return ""
		},
		Catch: []string{"docker inspect app | jq '.[0].Config.Env'", "kubectl get deploy api -o json | jq '.spec.template.spec.containers[].env'", "aws lambda get-function-configuration --function-name api --query Environment.Variables", "docker container inspect db | grep -A30 '\"Env\"'", "crictl inspect 3f2a | jq '.info.config.envs'"},
		Allow: []string{"docker inspect app | jq '.[0].State'", "docker inspect app | jq '.[0].Config.Env | length'", "docker inspect app | jq -r '.[0].Config.Env[] | split(\"=\")[0]'", "jq .env package.json", "kubectl get deploy api -o jsonpath='{.spec.replicas}'", "docker inspect app | jq '.[0].Config.Env' | wc -l"}}
}
