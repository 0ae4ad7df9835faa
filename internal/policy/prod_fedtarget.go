package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// A target named by the text fed as a file. kubectl apply -f -, helm -f -,
// terraform -var-file=/dev/stdin, aws --cli-input-json file:///dev/stdin
// and gcloud --flags-file=- read a manifest, values or flags from their
// input: when the line shows that text (a here-document, echo … |), the
// namespace, context, project or environment it names is where the
// command acts, as -n production or --project acme-prod on the line
// would say (pack_prodtarget.go).

// fedTargetKey: a key of a manifest, values, tfvars, JSON input or
// flags file whose value names where the command acts.
var fedTargetKey = re(`(?im)^[\s{,]*"?-{0,2}(namespace|context|kube_?context|cluster|environment|env|stage|project|project_id|profile|workspace|name|[a-z]*name)"?\s*[:=]\s*["']?([A-Za-z0-9_.:/@-]+)`)

// fedProdTarget is the key: value of the text fed to c as a file that
// names production ("" when none does, or nothing is fed as a file).
func fedProdTarget(c *Cmd) string {
	if c.Heredoc == "" {
		return ""
	}
	fed := false
	for _, a := range c.Args {
		if callfacts.StdinName(a) || strings.HasPrefix(a, "-") && strings.HasSuffix(a, "=-") { // --flags-file=-
			fed = true
			break
		}
	}
	if !fed {
		return ""
	}
	for _, m := range fedTargetKey.FindAllStringSubmatch(c.Heredoc, 64) {
		if prodWord.MatchString(m[2]) {
			return strings.TrimLeft(m[1], "-") + ": " + m[2] + " (in the text fed as a file)"
		}
	}
	return ""
}
