package policy

import (
	"path"
	"slices"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// One reading of "this command acts on a dev, test or local place",
// consulted before any rule judges the call: what a command changes
// inside a throwaway cluster (a kube context of kind, k3d, minikube,
// Docker Desktop…, whatever its suffix) or inside a container named for
// development or tests (orthanc-dev, mysql-test, pg_test) is the
// developer's own scratch state, whichever program does it. The engine
// leaves such commands out of what the rules judge (Facts.Without), so
// the exemption holds for programs and verbs no rule lists, through
// shell functions and variables the line defines (the reading resolves
// those first).
//
// It does not hold when the place is not certainly this machine's
// (DOCKER_HOST, docker --context or -H on the line), for a command that
// sends to the network from inside the place, when a command there names
// a secret or credentials file (a host's ~/.aws mounted into the
// container), or when what a dropped command prints is piped on to
// another command (the secrets of a dev cluster piped to curl are still
// judged).

// kubeClients take a kube context (--context, or helm's --kube-context).
var kubeClients = map[string]bool{"kubectl": true, "oc": true, "helm": true, "helmfile": true, "kustomize": true,
	"k9s": true, "kubens": true, "stern": true, "skaffold": true, "tilt": true, "flux": true, "argocd": true, "istioctl": true, "linkerd": true, "velero": true}

// placeExecs are the programs that run a command inside a container or
// a pod: NAME exec [options] TARGET CMD…
var placeExecs = map[string]bool{"docker": true, "podman": true, "nerdctl": true, "docker-compose": true,
	"podman-compose": true, "kubectl": true, "oc": true}

// placeSenders send from inside the place: judged as ever.
var placeSenders = map[string]bool{"curl": true, "wget": true, "nc": true, "ncat": true, "netcat": true, "socat": true,
	"scp": true, "rsync": true, "sftp": true, "ftp": true, "ssh": true, "aws": true, "gsutil": true, "gcloud": true,
	"az": true, "rclone": true, "s3cmd": true, "mc": true}

// targetOptions choose which of a tool's profiles or package indexes a
// command acts on (skaffold -p local, twine --repository testpypi, npm
// --registry http://localhost:4873). A hosted platform's dev environment
// (--env dev, --stage dev) is shared with others and is judged as ever.
var targetOptions = map[string]bool{"-p": true, "--profile": true, "--repository": true, "--repository-url": true, "--registry": true}

// progTargetOptions are one program's options that choose where it acts,
// with what makes the choice the developer's own: a Pulumi
// stack named for one developer or for tests (dev-jsmith, jsmith-dev,
// sandbox, test; a bare "dev" is the team's shared one), an OpenStack
// cloud that is a DevStack (a developer's single-node cloud; --os-cloud
// dev is an account like aws --profile dev), an Atlas deployment of
// --type local (a container on this machine).
var progTargetOptions = map[string]map[string]func(string) bool{
	"pulumi":    {"-s": personalStack, "--stack": personalStack},
	"openstack": {"--os-cloud": func(v string) bool { return v == "devstack" || strings.HasPrefix(v, "devstack-") }},
	"atlas":     {"--type": func(v string) bool { return v == "local" }},
}

// sharedStackWords name a stack many people use.
var sharedStackWords = map[string]bool{"shared": true, "team": true, "common": true, "staging": true, "stage": true, "qa": true, "uat": true, "preprod": true, "perf": true, "demo": true}

// personalStack: an IaC stack named for one developer or for tests, not
// the team's bare dev environment (org/project/stack: the last part).
func personalStack(v string) bool {
	if i := strings.LastIndexByte(v, '/'); i >= 0 {
		v = v[i+1:]
	}
	switch v {
	case "dev", "development", "devel":
		return false
	}
	for _, w := range strings.FieldsFunc(v, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		if sharedStackWords[w] {
			return false // shared-dev, team-sandbox, staging-test: a stack others use
		}
	}
	return devName(v) || v == "sandbox" || strings.HasPrefix(v, "sandbox-") || strings.HasSuffix(v, "-sandbox")
}

// testIndexes are package indexes kept for trying a release out.
var testIndexes = map[string]bool{"testpypi": true, "test.pypi.org": true, "https://test.pypi.org/legacy/": true}

// devTargetOption: c aims at a dev, test or local environment, package
// index or profile by an option that chooses it, and names no production
// place; or it makes only a draft (--draft: seen by the owners alone).
// Senders and cloud CLIs are judged as ever (aws --profile dev s3 rm is
// still someone's account).
func devTargetOption(c *Cmd) bool {
	if placeSenders[c.Name] || c.Remote != "" && !strings.HasPrefix(c.Remote, "-") {
		return false
	}
	if c.Remote == "" && !oracleTools[c.Name] && !hasOptionWord(c.Args) {
		// every test below reads an option word (--context, a target
		// option, --draft) or an Oracle connect string: withoutDevPlaces
		// asks this of every command of every call
		return false
	}
	if oracleDevConn(c) || localContext(c) {
		return true
	}
	found := false
	for i, a := range c.Args {
		if !strings.HasPrefix(a, "-") {
			continue
		}
		if a == "--draft" {
			found = true
			continue
		}
		o, v, has := strings.Cut(a, "=")
		own := progTargetOptions[c.Name][o]
		if !targetOptions[o] && own == nil {
			continue
		}
		if !has {
			if i+1 >= len(c.Args) {
				continue
			}
			v = c.Args[i+1]
		}
		v = strings.Trim(v, `"'`)
		if strings.ContainsAny(v, "{}[] ,;\"") {
			return false // a patch or a list (kubectl patch -p '{…}'), not a name
		}
		if o == "-p" && (strings.ContainsAny(v, "./~$") || slices.ContainsFunc(c.Pos, func(p string) bool { return strings.ContainsAny(p, "/~") })) {
			return false // -p is a flag of file tools (mkdir -p, cp -p): a profile is one bare word, and a path operand is judged as ever
		}
		if own != nil {
			if !own(strings.ToLower(v)) {
				return false
			}
			found = true
			continue
		}
		if !(testIndexes[strings.ToLower(v)] || devName(v) || isLocalEndpoint(v) && strings.Contains(v, ":")) {
			return false
		}
		found = true
	}
	return found && !prodMarker.MatchString(strings.Join(c.Args, " "))
}

// kubeContextOf is the kube context c names ("" when none).
func kubeContextOf(c *Cmd) string {
	for _, o := range []string{"--context", "--kube-context"} {
		if v := optValue(c, o); v != "" {
			return strings.Trim(v, `"'`)
		}
	}
	return ""
}

// localKubeClient: c is a cluster client aimed at a throwaway local
// cluster by its context.
func localKubeClient(c *Cmd) bool {
	return kubeClients[c.Name] && localKubeContext(kubeContextOf(c))
}

// execTarget is the container, service or pod an exec command (docker
// exec NAME, docker compose exec SVC, kubectl exec POD) runs in; ok is
// false when c is not one.
func execTarget(c *Cmd) (string, bool) {
	if !placeExecs[c.Name] {
		return "", false
	}
	if n := callfacts.ExecContainer(c); n != "" {
		return n, true // docker exec -u splunk splunk-dev …: the options' values skipped
	}
	for k, p := range c.Pos {
		if k > 1 {
			break
		}
		if p == "exec" && k+1 < len(c.Pos) {
			return c.Pos[k+1], true
		}
	}
	return "", false
}

// devExec: c runs commands inside a dev/test place: a container or
// compose service named for development or tests on this machine's
// engine, or any pod of a local cluster.
func devExec(c *Cmd) bool {
	t, ok := execTarget(c)
	if !ok {
		return false
	}
	if c.Name == "kubectl" || c.Name == "oc" {
		return localKubeContext(kubeContextOf(c))
	}
	return c.Remote == "" && devName(t)
}

// composeContainer: a container named as Compose names a service's
// replicas, PROJECT-SERVICE-N (or PROJECT_SERVICE_N): on this machine's
// engine that is a project's compose stack, the developer's own
// services, as projectContainer reads them (a store wiped there is the
// project's; the SQL run there is still judged by its database's name);
// a name with a production word (prod-db-1) is not.
func composeContainer(name string) bool {
	parts := strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' })
	if len(parts) < 3 || strings.ContainsAny(name, "/:.$") {
		return false
	}
	if n := parts[len(parts)-1]; n == "" || strings.Trim(n, "0123456789") != "" || len(n) > 2 {
		return false
	}
	for _, w := range parts {
		if l := strings.ToLower(w); prodWord.MatchString(l) || l == "live" || l == "prd" {
			return false
		}
	}
	return true
}

// devPlaces marks the commands of f that act on a dev, test or local
// place (see above); nil when there are none.
func devPlaces(f *Facts) []bool {
	if f.Tool != "Bash" {
		return nil
	}
	some := false
	for i := range f.Commands {
		if n := f.Commands[i].Name; kubeClients[n] || placeExecs[n] || devTargetOption(&f.Commands[i]) {
			some = true
			break
		}
	}
	if !some {
		return nil
	}
	if strings.Contains(f.Command, "DOCKER_HOST=") || strings.Contains(f.Command, "CONTAINER_HOST=") {
		return nil
	}
	kcLocal, kcOK := lineKubeconfig(f.Command)
	var drop []bool
	mark := func(i int) {
		if drop == nil {
			drop = make([]bool, len(f.Commands))
		}
		drop[i] = true
	}
	for i := range f.Commands {
		c := &f.Commands[i]
		if runsOverSSH(c, sshAnyWrapper) {
			// on another machine (ssh prod1 docker exec api-dev …) a
			// dev-named container, namespace or target is that
			// machine's, not the developer's own
			continue
		}
		switch {
		case localKubeClient(c) && kcOK, devExec(c) && kcOK, devTargetOption(c):
			mark(i)
		case kcOK && (devNamespaceClient(c, kcLocal) || localKubeconfigClient(c, kcLocal)):
			mark(i) // a developer's own namespace, a local cluster's kubeconfig
		case len(c.Wrappers) > 0 && (!placeSenders[c.Name] || containerSelfRequest(c)):
			// run inside an exec: the nearest exec command before it
			for j := i - 1; j >= 0; j-- {
				o := &f.Commands[j]
				if _, ok := execTarget(o); ok && o.Depth <= c.Depth && slices.ContainsFunc(c.Wrappers, func(w string) bool { return strings.HasSuffix(w, " exec") }) {
					if drop != nil && drop[j] || devExec(o) {
						mark(i)
					}
					break
				}
			}
		}
	}
	if drop == nil {
		return nil
	}
	// a secret or credentials file named inside the place (a host's
	// ~/.aws mounted into a dev container) is still judged
	for i := range f.Commands {
		if !drop[i] {
			continue
		}
		for _, a := range f.Commands[i].Args {
			if strings.Contains(a, "/") && (secretFile(a) || callfacts.IsCredential(a, f.Home)) || envFile(path.Base(a)) {
				return nil
			}
		}
	}
	// what a dropped command prints, piped to one that is judged
	for i := range f.Commands {
		if drop[i] {
			continue
		}
		for _, u := range f.Commands[i].Upstream {
			for j := range f.Commands {
				if drop[j] && f.Commands[j].Name == u {
					return nil
				}
			}
		}
	}
	// sudo docker exec dev-box nvidia-smi: the exec on a dev place is
	// dropped, and sudo, left running nothing judged, goes with it (the
	// container daemon is root already)
	for i := range f.Commands {
		c := &f.Commands[i]
		if drop[i] || c.Name != "sudo" && c.Name != "doas" || i+1 >= len(f.Commands) || !drop[i+1] {
			continue
		}
		if d := &f.Commands[i+1]; len(d.Wrappers) == len(c.Wrappers)+1 && strings.HasPrefix(d.Wrappers[len(d.Wrappers)-1], c.Name) && (containerExecs[d.Name] || kubeClients[d.Name]) {
			drop[i] = true
		}
	}
	return drop
}

// containerExecs run a command in a container through a daemon that is
// root already.
var containerExecs = map[string]bool{"docker": true, "podman": true, "nerdctl": true, "docker-compose": true}

// withoutDevPlaces is f without its commands on dev/test/local places.
func withoutDevPlaces(f *Facts) *Facts {
	drop := devPlaces(f)
	if drop == nil {
		return f
	}
	return f.Without(func(i int, _ *callfacts.Cmd) bool { return drop[i] })
}

// oracleTools take an Oracle connect identifier (user/pw@ALIAS, /@ALIAS,
// userid=…@ALIAS).
var oracleTools = map[string]bool{"impdp": true, "expdp": true, "sqlplus": true, "sql": true, "sqlldr": true, "imp": true, "exp": true, "rman": true}

// oracleDevConn: c, an Oracle tool, connects only to databases whose
// alias names them for development (/@FINDEV, userid=/@APP_DEV, XEPDB1)
// and the line names no production place. A TEST, QA or UAT instance
// (hr/x@ORCLTEST, banner@TEST) is the organisation's shared test copy
// of the application, not the developer's own (oracleRemoteAlias).
func oracleDevConn(c *Cmd) bool {
	if !oracleTools[c.Name] || prodMarker.MatchString(strings.Join(c.Args, " ")) {
		return false
	}
	n := 0
	for _, a := range c.Args {
		if strings.HasPrefix(a, "@") || strings.HasPrefix(a, "-") {
			continue // sqlplus @script.sql
		}
		_, alias, ok := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "userid="), "USERID="), "@")
		if !ok || alias == "" || strings.ContainsAny(alias, "$ @") {
			continue
		}
		alias = strings.ToLower(alias[strings.LastIndexAny(alias, "/:")+1:]) // //host:1521/FINDEV: the service
		if !oracleDevAlias(alias) || prodWord.MatchString(alias) {
			return false
		}
		n++
	}
	return n > 0
}

// localContext: c, not a kube client, chooses its configured context by
// --context and that context is this machine's (kcctl --context local).
func localContext(c *Cmd) bool {
	if kubeClients[c.Name] {
		return false
	}
	v := strings.ToLower(strings.Trim(optValue(c, "--context"), `"'`))
	return v == "local" || v == "localhost" || strings.HasPrefix(v, "local-") || strings.HasSuffix(v, "-local") || v != "" && isLocalEndpoint(v) && strings.Contains(v, ":")
}

// hasOptionWord reports whether one of args starts with "-".
func hasOptionWord(args []string) bool {
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			return true
		}
	}
	return false
}
