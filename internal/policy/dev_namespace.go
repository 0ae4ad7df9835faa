package policy

import (
	"path"
	"strings"
)

// The developer's own namespace: a change a cluster client
// makes inside a namespace named for one developer, a feature branch, a
// pull request's preview or tests (dev, dev-alice, alice-dev, feature-x,
// pr-123, e2e, sandbox) acts on scratch state, as in a local cluster.
// It holds only when the line names no other cluster (a context, server
// or kubeconfig that is not a throwaway local one), no production word,
// when the verb acts inside the namespace (not on the namespace itself,
// nodes or other cluster-wide kinds) and when nothing it touches is a
// secret or a token (printing those is judged as ever).

// nsChangeVerbs act inside the namespace a cluster client is given.
var nsChangeVerbs = map[string]bool{"delete": true, "apply": true, "create": true, "scale": true, "rollout": true, "patch": true,
	"label": true, "annotate": true, "set": true, "replace": true, "uninstall": true, "upgrade": true, "install": true,
	"rollback": true, "autoscale": true, "expose": true, "run": true, "sync": true, "destroy": true}

// clusterWideWords name what is not inside one namespace, secrets, or
// the namespace's stored data.
var clusterWideWords = map[string]bool{"ns": true, "namespace": true, "namespaces": true, "node": true, "nodes": true, "no": true,
	"secret": true, "secrets": true, "token": true, "clusterrole": true, "clusterroles": true, "clusterrolebinding": true,
	"clusterrolebindings": true, "crd": true, "crds": true, "customresourcedefinition": true, "customresourcedefinitions": true,
	"pv": true, "persistentvolume": true, "persistentvolumes": true, "storageclass": true, "storageclasses": true, "sc": true,
	"mutatingwebhookconfiguration": true, "validatingwebhookconfiguration": true, "apiservice": true, "priorityclass": true,
	"serviceaccount": true, "sa": true, "--all-namespaces": true, "-A": true,
	// a volume claim's data: deleting the claim deletes the volume it
	// holds (the default reclaim policy), which no redeploy brings back
	// (asked in a dev namespace: devNamespaceDataDelete)
	"pvc": true, "pvcs": true, "persistentvolumeclaim": true, "persistentvolumeclaims": true}

// claimKinds are the kinds of a namespace's stored data.
var claimKinds = map[string]bool{"pvc": true, "pvcs": true, "persistentvolumeclaim": true, "persistentvolumeclaims": true}

// devNamespaceDataDelete: c deletes volume claims (the namespace's
// stored data) in what is otherwise a developer's own namespace
// (kubectl -n dispatch-test delete pvc --all): a test stage's data is
// not rebuilt by the next deploy, so it is asked, not denied.
func devNamespaceDataDelete(e *Env, c *Cmd) bool {
	if !kubeClients[c.Name] || len(c.Pos) < 2 || c.Pos[0] != "delete" {
		return false
	}
	k, _, _ := strings.Cut(strings.ToLower(c.Pos[1]), "/")
	if !claimKinds[k] {
		return false
	}
	kcLocal, kcOK := lineKubeconfig(e.F.Command)
	return kcOK && devNamespaceClientOf(c, kcLocal, true)
}

// ownNsWords make a namespace someone's own or a branch's throwaway one.
var ownNsWords = map[string]bool{"feature": true, "feat": true, "pr": true, "preview": true, "review": true, "my": true, "wip": true, "playground": true, "branch": true}

// devNamespace: ns is named for development, tests, a branch or a
// preview, and for nothing shared or production.
func devNamespace(ns string) bool {
	if ns == "" || strings.ContainsAny(ns, "$/:{}") {
		return false
	}
	own := false
	for _, w := range strings.FieldsFunc(strings.ToLower(ns), func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		t := strings.TrimRight(w, "0123456789")
		switch {
		case prodWord.MatchString(w) || w == "live" || w == "prd" || sharedStackWords[t] || t == "default" || t == "kube":
			return false
		case devWords[t] || testWords[t] || ownNsWords[t]:
			own = true
		}
	}
	return own
}

// localKubeconfig: a kubeconfig file named for a throwaway local cluster
// (./kind.kubeconfig, ~/.kube/minikube, .kube/k3d-dev.yaml).
func localKubeconfig(v string) bool {
	v = strings.Trim(v, `"'`)
	if v == "" || strings.Contains(v, ":") || prodMarker.MatchString(v) {
		return false
	}
	b := strings.ToLower(path.Base(v))
	for _, w := range strings.FieldsFunc(b, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		if localKubeContext(w) || w == "kind" || w == "k3d" || w == "local" {
			return true
		}
	}
	return false
}

// lineKubeconfig is the KUBECONFIG the line assigns ("" when none; ok
// false when it assigns one that is not a local cluster's).
func lineKubeconfig(line string) (local, ok bool) {
	_, rest, found := strings.Cut(line, "KUBECONFIG=")
	if !found {
		return false, true
	}
	v, _, _ := strings.Cut(rest, " ")
	if localKubeconfig(v) {
		return true, true
	}
	return false, false
}

// typedValue is option o's value in c's arguments as written (global
// options before the subcommand included).
func typedValue(c *Cmd, o string) string {
	if c.Typed == nil {
		return optValue(c, o)
	}
	t := Cmd{Args: c.Typed}
	return optValue(&t, o)
}

// devNamespaceClient: c, a cluster client, changes what is inside a
// developer's own namespace of a cluster that is not named as another.
func devNamespaceClient(c *Cmd, kubeconfigLocal bool) bool {
	return devNamespaceClientOf(c, kubeconfigLocal, false)
}

// devNamespaceClientOf is devNamespaceClient; claims: volume claims
// count as inside the namespace.
func devNamespaceClientOf(c *Cmd, kubeconfigLocal, claims bool) bool {
	if !kubeClients[c.Name] || len(c.Pos) == 0 || !nsChangeVerbs[c.Pos[0]] || runsOverSSH(c, sshAnyWrapper) {
		return false
	}
	if ctx := kubeContextOf(c); ctx != "" && !localKubeContext(ctx) {
		return false
	}
	if kc := typedValue(c, "--kubeconfig"); kc != "" && !localKubeconfig(kc) {
		return false
	}
	if typedValue(c, "--server") != "" || typedValue(c, "-s") != "" || typedValue(c, "--cluster") != "" || typedValue(c, "--kube-apiserver") != "" {
		return false
	}
	ns := typedValue(c, "--namespace")
	if ns == "" {
		ns = typedValue(c, "-n")
	}
	if !devNamespace(strings.Trim(ns, `"'`)) {
		return false
	}
	for _, a := range c.Typed {
		if a == "-A" || a == "--all-namespaces" {
			return false
		}
	}
	for _, a := range c.Args {
		l := strings.ToLower(a)
		k, _, _ := strings.Cut(l, "/")
		if (clusterWideWords[k] || clusterWideWords[a]) && !(claims && claimKinds[k]) || strings.HasPrefix(l, "--namespace=") && strings.Count(l, "=") > 1 {
			return false
		}
	}
	return !prodMarker.MatchString(strings.Join(c.Args, " "))
}

// localKubeconfigClient: c, a cluster client, is given only a local
// cluster's kubeconfig (by --kubeconfig or the line's KUBECONFIG) and
// no other context.
func localKubeconfigClient(c *Cmd, kubeconfigLocal bool) bool {
	if !kubeClients[c.Name] || runsOverSSH(c, sshAnyWrapper) {
		return false
	}
	if ctx := kubeContextOf(c); ctx != "" && !localKubeContext(ctx) {
		return false
	}
	kc := typedValue(c, "--kubeconfig")
	return kc != "" && localKubeconfig(kc) || kc == "" && kubeconfigLocal
}

// iacOwnEnv: an IaC destroy or workspace delete whose every named
// environment (-chdir=envs/NAME, -var-file=NAME.tfvars, --stage NAME,
// workspace delete NAME) is one developer's, a branch's, a preview's or
// a local one (dev-alice, pr-42, feature-x, local, e2e); the team's bare
// dev, anything shared and anything of production are not.
func iacOwnEnv(c *Cmd) bool {
	if prodMarker.MatchString(strings.Join(c.Args, " ")) {
		return false
	}
	n := 0
	for _, o := range []string{"-chdir", "-var-file", "--var-file", "--stage", "-s"} {
		v := strings.Trim(typedValue(c, o), `"'`)
		if v == "" {
			continue
		}
		v = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(path.Base(strings.TrimSuffix(v, "/")), ".json"), ".tfvars"), ".yml")
		if !personalEnv(v) {
			return false
		}
		n++
	}
	if len(c.Pos) > 2 && c.Pos[0] == "workspace" && c.Pos[1] == "delete" {
		if !personalEnv(c.Pos[len(c.Pos)-1]) {
			return false
		}
		n++
	}
	return n > 0
}

// personalEnv: an environment named as devNamespace reads it, but not
// the team's bare dev one.
func personalEnv(v string) bool {
	switch strings.ToLower(v) {
	case "dev", "development", "devel", "develop", "test", "testing", "qa":
		return false
	}
	return devNamespace(v)
}
