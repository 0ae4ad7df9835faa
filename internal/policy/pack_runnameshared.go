package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// runNameSharedRule: a task runner's target, its definition not on disk
// to read, whose name says it changes something that is not this
// checkout's build: credentials rotated (rotate-api-key, rotate:pki), a
// shared environment's data reloaded (reseed-staging, task db:restore
// ENV=uat), a remote store pruned (prune-registry, gc-bucket), or a clean
// target run in another checkout (make -C ~/work/other distclean: that
// project's configured build, not this one's). Its name is all there is
// to judge; each asks. The words are data here, not per program.
func runNameSharedRule() Rule {
	return localRule("core.local:run-name-shared", Ask, "A task runner target named for rotating credentials (rotate-secret, rotate:pki), reloading a shared environment's data (reseed-staging, restore ENV=uat), pruning a remote store (prune-registry), or cleaning another checkout (make -C ~/work/other distclean), when its definition is not on disk to read", taskRunnerNames(),
		func(e *Env, c *Cmd) string {
			if c.Has("-n", "--just-print", "--recon", "--dry-run", "-l", "--list") || onlyHelp(c) || listsTasks(c) {
				return ""
			}
			ts := runnerTasks(c)
			if len(ts) == 0 || definitionRead(e, c) {
				return ""
			}
			_, vars := runTarget(e, c)
			dir := ""
			if c.Name == "make" || c.Name == "gmake" {
				if dir = optValue(c, "-C"); dir == "" {
					dir = optValue(c, "--directory")
				}
			}
			for _, t := range ts {
				if t == dir {
					continue
				}
				switch {
				case nameHas(t, sharedRotateVerbs) && nameHas(t, sharedCredObjects):
					return c.Name + " " + t + " rotates credentials others use, by its name"
				case nameHas(t, sharedPruneVerbs) && nameHas(t, sharedRemoteStores):
					return c.Name + " " + t + " prunes a remote store, by its name"
				case nameHas(t, sharedDataVerbs):
					if nameHas(t, sharedEnvWords) {
						return c.Name + " " + t + " reloads a shared environment's data, by its name"
					}
					for _, v := range vars {
						k, val, _ := strings.Cut(v, "=")
						if envVarNames[strings.ToUpper(k)] && nameHas(strings.ToLower(strings.Trim(val, `"'`)), sharedEnvWords) {
							return c.Name + " " + t + " changes data in the " + val + " environment (" + v + ")"
						}
					}
				case nameHas(t, sharedRotateVerbs):
					for _, v := range vars {
						k, val, _ := strings.Cut(v, "=")
						if envVarNames[strings.ToUpper(k)] && nameHas(strings.ToLower(strings.Trim(val, `"'`)), sharedEnvWords) {
							return c.Name + " " + t + " rotates something in the " + val + " environment (" + v + ")"
						}
					}
				case cleanWords[strings.ToLower(t)] && dir != "":
					p := e.abs(c, dir)
					switch callfacts.ZoneOf(p, e.F.Home, e.F.Project) {
					case callfacts.ZoneProject, callfacts.ZoneRepo, callfacts.ZoneTemp:
					default:
						return c.Name + " " + t + " cleans another checkout (" + dir + "), not this project's build"
					}
				}
			}
			return ""
		},
		[]string{"just rotate-api-keys", "npm run rotate:jwt-secret", "make reseed-uat", "task db:restore ENV=staging", "mise run prune-registry", "make gc-bucket", "make -C ~/src/other-firmware mrproper", "task rotate:certs", "make rotate ENV=staging"},
		[]string{"make rotate-logs", "make seed", "make db-seed ENV=dev", "task prune-cache", "make -C build clean", "make -C /tmp/x distclean", "make -n reseed-staging", "just rotate-images", "make distclean", "make staging-docs"})
}

var (
	sharedRotateVerbs  = wordSet("rotate", "revoke", "regenerate", "reissue", "rekey")
	sharedCredObjects  = wordSet("secret", "secrets", "key", "keys", "apikey", "apikeys", "pki", "ca", "cert", "certs", "certificate", "certificates", "token", "tokens", "creds", "credentials", "password", "passwords", "jwt", "tls", "ssl", "sp", "sa", "keypair")
	sharedPruneVerbs   = wordSet("prune", "purge", "gc", "cleanup", "expire", "vacuum")
	sharedRemoteStores = wordSet("registry", "registries", "bucket", "buckets", "ecr", "gcr", "acr", "artifactory", "nexus", "s3", "gcs", "cdn", "releases")
	sharedDataVerbs    = wordSet("seed", "reseed", "restore", "reload", "refresh-data", "reimport", "import", "backfill", "migrate", "load", "truncate", "reindex", "flush", "reset")
	sharedEnvWords     = wordSet("staging", "stage", "stg", "uat", "qa", "preprod", "pre-prod", "shared", "perf", "demo-shared")
)
