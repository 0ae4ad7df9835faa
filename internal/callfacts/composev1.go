package callfacts

// Compose v1 is a program of its own (docker-compose, podman-compose)
// whose words are v2's after "compose": docker-compose -p shop exec api
// ls is docker compose -p shop exec api ls. composeV1 names the engine
// each stands for, so containerCmd reads both forms the same way (the
// command run in the service, its label, compose's global options).
var composeV1 = map[string]string{"docker-compose": "docker", "podman-compose": "podman"}

// composeArgOpt reports whether an option of compose (its global ones,
// before the subcommand, and exec's --index) takes a value, besides the
// options docker run and exec share (dockerArgOpt): docker compose -f
// dev.yml exec db … names dev.yml as the file, not the subcommand.
func composeArgOpt(k string) bool {
	switch k {
	case "-f", "--file", "--project-name", "--project-directory", "--profile", "--ansi", "--progress", "--parallel", "--index", "--podman-path", "--podman-args":
		return true
	}
	return dockerArgOpt(k)
}
