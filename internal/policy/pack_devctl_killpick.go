package policy

import "strings"

// docker kill over a pick (docker ps -q --filter name=X | xargs docker
// kill, docker kill $(docker ps -q -f name=X)) sends SIGKILL to every
// running container whose name holds X, whoever started it: an analysis
// pipeline's run, a colleague's service. Unlike stop it gives the
// process no time to save its work. The agent's own containers are the
// ones it names for development or tests (api-dev, postgres-test) or a
// dev tool's (mailhog, localstack: devprocs.txt); anything else asks. A
// shared service picked this way is core.local:service-container-picked's
// and a container named one by one is judged by name (serviceContainerRule).
func killPickedContainerRule() Rule {
	return cmdRule("core.local:container-kill-picked", Ask, "Every running container whose name holds a word killed (SIGKILL) through a docker ps --filter name=… pick (docker ps -q --filter name=fragpipe | xargs docker kill): a job or service someone else started dies without saving its work; a dev- or test-named pick or a dev tool's (name=api-dev, name=localstack) stays routine",
		[]string{"docker", "podman", "nerdctl"},
		func(e *Env, c *Cmd) string {
			s := c.Sub(0)
			if s == "container" {
				s = c.Sub(1)
			}
			if s != "kill" || !strings.Contains(strings.Join(c.Args, " "), "$") {
				return ""
			}
			for _, n := range psFilterNames(e) {
				if !ownContainerPick(n) {
					return c.Name + " kill ends every container whose name holds " + n + ", which the agent may not have started: " + c.String()
				}
			}
			return ""
		},
		[]string{"docker ps -q --filter name=fragpipe | xargs -r docker kill", "docker kill $(docker ps -q --filter name=openrefine)", "podman kill $(podman ps -q -f name=nextflow)", "docker ps -q -f name=cellranger | xargs docker container kill"},
		[]string{"docker kill $(docker ps -q --filter name=api-dev)", "docker ps -q --filter name=localstack | xargs docker kill", "docker kill $(docker ps -q --filter ancestor=localstack/localstack)", "docker stop $(docker ps -q --filter name=fragpipe)", "docker ps -q --filter name=fragpipe", "docker kill $(docker ps -q --filter name=e2e-test)"})
}

// ownContainerPick: a docker ps name filter the agent's own containers
// answer to: a dev or test name, or a dev tool's.
func ownContainerPick(n string) bool {
	n = strings.ToLower(strings.Trim(n, `'"^$`))
	if n == "" || strings.Contains(n, "$") || devName(n) {
		return n != ""
	}
	for _, w := range strings.FieldsFunc(n, func(r rune) bool { return r == '_' || r == '.' || r == '/' || r == ':' || r == '-' }) {
		if devProcName(w) {
			return true
		}
	}
	return false
}
