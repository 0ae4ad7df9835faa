package callfacts

// postStageWords follow "post" in a name that is a stage or a hook run
// here, not an HTTP POST (post-install, post-process, post-merge,
// postprocess-results, post-mortem): verbs.txt's joined change "post"
// is an API operation's method only without them.
var postStageWords = map[string]bool{"install": true, "process": true, "processing": true, "build": true, "merge": true, "checkout": true,
	"commit": true, "receive": true, "mortem": true, "render": true, "hook": true, "hooks": true, "rewrite": true, "update": true, "upgrade": true,
	"compile": true, "link": true, "run": true, "test": true, "tests": true, "analysis": true, "analyze": true, "hoc": true, "fix": true, "filter": true}

// postStage: parts (a subcommand split at : - _) start with "post" and a
// stage word.
func postStage(parts []string) bool {
	return len(parts) > 1 && parts[0] == "post" && postStageWords[parts[1]]
}
