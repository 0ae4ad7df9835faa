package policy

// miss3Rules: credentials of data platforms and package sources kept in
// the user's profile. They sit beside the cloud CLIs' (core.paths:
// cloud-credentials) but hold one service's password or token, so
// reading them asks rather than denies.
func miss3Rules() []Rule {
	dirs := []string{".snowsql/config", ".config/snowflake/connections.toml", ".dbt/profiles.yml", ".databrickscfg", ".config/NuGet/NuGet.Config",
		".nuget/NuGet/NuGet.Config", "AppData/Roaming/NuGet/NuGet.Config", ".config/configstore/firebase-tools.json"}
	r := homeDirRule("core.local:tool-credentials", "Reads and writes of data-platform and package-source credentials in the profile (~/.snowsql/config, ~/.config/snowflake, ~/.dbt/profiles.yml, ~/.databrickscfg, NuGet.Config under %APPDATA% or ~/.nuget, firebase-tools' login)",
		[]string{".snowsql/config", ".config/snowflake/connections.toml", ".dbt/profiles.yml", ".databrickscfg", ".config/NuGet/NuGet.Config",
			".nuget/NuGet/NuGet.Config", "AppData/Roaming/NuGet/NuGet.Config", ".config/configstore/firebase-tools.json"},
		[]string{"cat ~/.databrickscfg", "grep password ~/.dbt/profiles.yml", "type \"%APPDATA%\\NuGet\\NuGet.Config\"", "less $HOME/.config/snowflake/connections.toml", "cat ~/.config/configstore/firebase-tools.json"},
		[]string{"ls ~/.snowsql", "cat profiles.yml", "cat nuget.config", "dbt debug", "databricks auth profiles"})
	r.Mode = Ask
	r.Reads = true // a write to them is a write the facts see
	judge := r.Match
	r.Match = func(e *Env) string {
		// the cheap test first: most calls touch none of these files
		for _, p := range e.F.Paths {
			for _, d := range dirs {
				if underSub(p.Path, e.F.Home, d) {
					return judge(e)
				}
			}
		}
		return ""
	}
	return append([]Rule{r}, miss3DepRules()...)
}
