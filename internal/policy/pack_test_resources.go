package policy

import (
	"strings"
)

// Test resources: what a project's own tests or CI runs create in a
// cloud, a cluster or a forge carries a test word and the run's id in its
// name (ci-test-4821, preview-pr-123, tmp-test-repo-91, e2e_20240611):
// deleting those is the run cleaning up after itself. A name with a test
// word but no run id (test-bucket, staging-tests) may be a shared
// fixture and stays a destroy; so does any name with a word of
// production, and a line that also names anything else. A cloud CLI
// pointed at an endpoint on this machine (LocalStack, MinIO, an
// emulator: --endpoint-url http://localhost:4566) deletes nothing remote.

// testWords say a resource was made for tests or a throwaway run.
var testWords = map[string]bool{"test": true, "tests": true, "testing": true, "ci": true, "e2e": true, "tmp": true, "temp": true,
	"scratch": true, "ephemeral": true, "preview": true, "review": true, "sandbox": true, "pytest": true, "it": false}

// ephemeralTargets: from c's first name-like operand (with a digit, -,
// _ or a scheme) on, every operand is a test resource with a run id.
func ephemeralTargets(c *Cmd) bool {
	n := 0
	for i, p := range c.Pos {
		if i > 0 && (contextOption(c.Args, p) || (c.Name == "kubectl" || c.Name == "helm" || c.Name == "oc") && valueOf(c.Args, p, "-n", "--namespace")) {
			continue // --project acme-dev, -g rg-shared: where, not what
		}
		name := p
		if i := strings.Index(name, "://"); i >= 0 {
			name = name[i+3:]
		}
		name = strings.Trim(name, "/")
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			name = name[i+1:] // owner/repo: the repository
		}
		if n == 0 && !strings.ContainsAny(name, "-_") && !(len(name) > 3 && strings.ContainsAny(name, "0123456789")) {
			continue // a verb or a kind before the names (delete, namespace, rb, s3, ec2)
		}
		if !ephemeralName(name) && !ephemeralUnder(p, name) {
			return false
		}
		n++
	}
	return n > 0
}

// ephemeralName: a name with a test word and a run id (a part of two or
// more digits, or pr/run/build followed by digits), and no production.
func ephemeralName(name string) bool {
	test, id := false, false
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		switch {
		case prodWord.MatchString(w) || w == "live" || w == "main" || w == "master":
			return false
		case testWords[w]:
			test = true
		case len(w) >= 2 && strings.Trim(w, "0123456789") == "",
			len(w) > 2 && (strings.HasPrefix(w, "pr") || strings.HasPrefix(w, "run")) && strings.Trim(strings.TrimPrefix(strings.TrimPrefix(w, "pr"), "run"), "0123456789") == "":
			id = true
		}
	}
	return test && id
}

// localEndpoint: a cloud CLI pointed at an endpoint on this machine
// (--endpoint-url http://localhost:4566, AWS_ENDPOINT_URL=http://127.0.0.1:9000).
func localEndpoint(e *Env, c *Cmd) bool {
	// read from the line: the CLI's global options are set aside from c
	v := ""
	for _, k := range []string{"--endpoint-url=", "--endpoint-url ", "--endpoint=", "--endpoint ", "AWS_ENDPOINT_URL=", "AWS_ENDPOINT_URL_S3="} {
		if i := strings.Index(e.F.Command, k); i >= 0 {
			if f := strings.Fields(e.F.Command[i+len(k):]); len(f) > 0 {
				v = strings.Trim(f[0], `"'`)
			}
		}
	}
	return c.Name != "curl" && (v != "" && ownHost(urlHost(v)) || emulatorEnv(e.F.Command) || cliAddrLocal(e.F.Command, c.Name))
}

// contextOptions name where a CLI acts, not what it deletes.
var contextOptions = map[string]bool{"--project": true, "--region": true, "--zone": true, "--profile": true, "--context": true,
	"--kube-context": true, "--subscription": true, "-g": true, "--resource-group": true, "--location": true, "--org": true,
	"--account": true, "--cluster": true, "--kubeconfig": true, "-R": true, "--repo": true}

// contextOption: p is the value of one of contextOptions in args.
func contextOption(args []string, p string) bool {
	for i := 1; i < len(args); i++ {
		if args[i] == p && contextOptions[args[i-1]] {
			return true
		}
	}
	return false
}

// valueOf: p is the value of one of opts in args (a cluster's namespace:
// where a release or object is, not what is deleted).
func valueOf(args []string, p string, opts ...string) bool {
	for i := 1; i < len(args); i++ {
		if args[i] == p {
			for _, o := range opts {
				if args[i-1] == o {
					return true
				}
			}
		}
	}
	return false
}
