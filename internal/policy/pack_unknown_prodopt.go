package policy

import (
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Production named by an option, for programs no table knows. A CLI
// warden has never seen still says where it acts the way the known ones
// do: an option picking the context, environment, network or site
// (istioctl install --context prod, orchestrator-client -alias
// billing-prod, somecli deploy --network mainnet). With such a value,
// the command's verb decides as it does for the known remote CLIs
// (prodAction): a destroy is denied, a change asks, reads (get, status,
// list, logs, describe, analyze) stay allowed. The options and values
// are data (remoteops.txt prod-option-any, prod-value-any).

// prodOptAny is the option and value of c that name production, "" for
// none: --context prod, -alias billing-prod, --network mainnet.
func prodOptAny(c *Cmd) string {
	opts, vals := opsList("prod-option-any"), opsList("prod-value-any")
	for i, a := range c.Args {
		k, v, hasV := strings.Cut(a, "=")
		if len(k) > 2 && k[0] == '-' && k[1] != '-' {
			k = "-" + k // -alias is --alias
		}
		if !opts[k] {
			continue
		}
		if !hasV && i+1 < len(c.Args) {
			v = c.Args[i+1]
		}
		if v = strings.Trim(v, `"'`); prodWord.MatchString(v) && !callfacts.UnknownValue(v) || vals[strings.ToLower(v)] {
			return a + " " + v
		}
	}
	return ""
}

// unknownProgram: a program no table describes (not a known tool, not a
// remote or runner CLI the production rules read, not a script by path).
// netSQLClientSet: a database client's statements are judged by the SQL
// rules (ksql … --execute "SHOW QUERIES;" reads), not by its words.
var netSQLClientSet = sync.OnceValue(func() map[string]bool {
	m := make(map[string]bool, len(netSQLClients))
	for _, n := range netSQLClients {
		m[n] = true
	}
	return m
})

func unknownProgram(c *Cmd) bool {
	if strings.ContainsAny(strings.TrimSuffix(c.Name, ".sh"), "/$.=") || callfacts.Known(c.Name) || notConfigPrograms[c.Name] || netSQLClientSet()[c.Name] {
		return false
	}
	return !opsList("remote-cli")[c.Name] && !opsList("runner-cli")[c.Name] && !opsList("export-prog")[c.Name] && c.ChainTx() == nil
}

// unknownVerbClass reads the first words of an unknown program's
// arguments: "destroy" or "change" by remoteops.txt's lists, "" when the
// first says it reads or none says anything (proxy-status, topology).
func unknownVerbClass(c *Cmd, named bool) string {
	destroy, change, read := opsList("destroy-verb"), opsList("change-verb-any"), opsList("read-verb")
	weak := opsList("weak-change-any")
	class := ""
	for i, p := range c.Pos[:min(3, len(c.Pos))] {
		if prodWord.MatchString(p) || strings.ContainsAny(p, "=/.@") {
			continue // the target, a file, KEY=VALUE
		}
		if nounBeforeRead(c.Pos, i) || callfacts.CheckPhrase(p) {
			return "" // octopus release get x-prod, cachix deploy list: the kind a read word lists; can-delete asks
		}
		ws := wordsOf(p)
		if cp := callfacts.CamelParts(p); cp != nil {
			ws = cp // UpdateService, deleteUser: an API operation's words
		}
		for j, w := range ws {
			switch {
			case destroy[w]:
				return "destroy"
			case read[w] && (i == 0 || j > 0):
				return "" // status, proxy-status, get
			case change[w] && class == "" && !(named && weak[w]):
				class = "change"
			}
		}
	}
	if class == "" {
		return flagVerbClass(c) // kafka-configs.sh --alter, kafka-topics --delete: the verb is an option
	}
	return class
}

// unknownProdOptRules: production named by an option of a program no
// table knows, with a destroying or a changing verb.
func unknownProdOptRules() []Rule {
	judge := func(e *Env, c *Cmd) (string, string) {
		if !unknownProgram(c) || onlyHelp(c) || e.dryRun(c) || c.Has("--check", "--noop", "--what-if") {
			return "", ""
		}
		m, named := prodOptAny(c), false
		if m == "" {
			m, named = prodNamedAny(c), true // --config deploy/prod/x.yml, -url=jdbc:…prod…, chamber write orders-prod
		}
		if m == "" {
			m = prodConnEnv(e) // AWS_PROFILE=prod-admin chamber write …
		}
		if m == "" {
			return "", ""
		}
		switch unknownVerbClass(c, named) {
		case "destroy":
			return "deny", c.Name + " destroys on production (" + m + "): " + short80(c.String())
		case "change":
			return "ask", c.Name + " changes production (" + m + "): " + short80(c.String())
		}
		return "", ""
	}
	// a line with no word for production costs one scan of its text
	cheap := func(want string) func(e *Env) string {
		match := anyAtLevel(judge, want)
		return func(e *Env) string {
			if !mayNameProd(e.F.Command) && !strings.Contains(e.F.Command, "mainnet") && !strings.Contains(e.F.Command, "live") {
				return ""
			}
			return match(e)
		}
	}
	trig := On(0).OrText("prod", "Prod", "PROD", "prd", "PRD", "mainnet", "live")
	return []Rule{
		{ID: "external.systems:prod-destroy-unknown", Mode: Deny, Tools: shellTools, On: trig,
			Desc:  "A destroy verb (delete, uninstall, purge…) of a program no table knows, aimed at production by its own context, environment, network or site option (--context prod, -alias api-prod, --network mainnet); the options are data (policy/remoteops.txt prod-option-any)",
			Match: cheap("deny"),
			Catch: []string{"istioctl uninstall --purge -y --context prod-eu", "crossctl cluster delete api --kube-context production", "linkerd-ctl uninstall --context prod"},
			Allow: []string{"istioctl uninstall --purge -y --context kind-dev", "velero backup get --kube-context production", "istioctl analyze --context prod"}},
		{ID: "external.systems:prod-change-unknown", Mode: Ask, Tools: shellTools, On: trig,
			Desc:  "A change (install, apply, reconcile, takeover, migrate…) by a program no table knows, aimed at production by its own context, environment, network or site option (istioctl install --context prod, orchestrator-client -c graceful-master-takeover -alias billing-prod); reads (get, status, list, logs, describe, analyze) stay allowed; the options are data (policy/remoteops.txt prod-option-any)",
			Match: cheap("ask"),
			Catch: []string{"istioctl install -f istio/operator.yaml -y --context prod", "orchestrator-client -c graceful-master-takeover -alias billing-prod", "linkerd-ctl upgrade --context production", "sapient deploy --env production", "bridgectl migrate --network mainnet"},
			Allow: []string{"istioctl analyze -n payments --context prod", "istioctl install -f istio/operator.yaml -y --context kind-dev", "orchestrator-client -c topology -alias billing-prod", "sapient status --env production", "bridgectl migrate --network sepolia", "istioctl proxy-status --context prod"}},
	}
}
