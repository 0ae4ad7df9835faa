package policy

// dependencyRules: the rules about dependency sources. Reading the
// data platforms' and package sources' credentials in the profile
// (~/.snowsql/config, ~/.dbt/profiles.yml, ~/.databrickscfg, NuGet.Config,
// firebase-tools' login) is core.secrets:print-credential-file, over
// callfacts' credentials list where these files are; writing them is the
// credentials zone's.
func dependencyRules() []Rule {
	return dependencySourceRules()
}
