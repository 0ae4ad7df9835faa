package callfacts

// shortNames are the one- or two-letter aliases the tools' own guides
// tell users to set up; a line that calls one means the tool (k delete
// ns prod is kubectl delete ns prod). An alias defined earlier in the
// line is expanded before this is read.
var shortNames = map[string]string{"k": "kubectl", "kc": "kubectl", "kubecolor": "kubectl", "tf": "terraform",
	// GitLab omnibus's psql wrappers open the bundled database
	// (gitlabhq_production): its SQL is read as psql's
	"gitlab-psql": "psql", "gitlab-geo-psql": "psql"}
