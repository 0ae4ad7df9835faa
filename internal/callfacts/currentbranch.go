package callfacts

// The current branch named through git's own report of it. A line often
// computes the branch it pushes or resets: BR=$(git branch --show-current),
// $(git rev-parse --abbrev-ref HEAD), $(git symbolic-ref --short HEAD).
// Each prints the branch HEAD is on, so the substitution reads as HEAD,
// which the git rules resolve against the repository (a force-push of
// "$BR" from main is a force-push of main) instead of an unknown $(…).

// currentBranchOutput reports whether git args print the current
// branch's name, and then that it reads as HEAD.
func currentBranchOutput(name string, args []string) (text, bool) {
	if name != "git" {
		return text{}, false
	}
	for len(args) > 1 && (args[0] == "-C" || args[0] == "--no-pager") {
		if args[0] == "-C" {
			args = args[2:]
		} else {
			args = args[1:]
		}
	}
	head := text{s: "HEAD\n", known: true}
	switch {
	case len(args) == 2 && args[0] == "branch" && args[1] == "--show-current":
		return head, true
	case len(args) == 3 && args[0] == "rev-parse" && args[1] == "--abbrev-ref" && args[2] == "HEAD":
		return head, true
	case len(args) == 3 && args[0] == "symbolic-ref" && (args[1] == "--short" || args[1] == "-q") && args[2] == "HEAD",
		len(args) == 4 && args[0] == "symbolic-ref" && args[3] == "HEAD" && (args[1] == "--short" && args[2] == "-q" || args[1] == "-q" && args[2] == "--short"):
		return head, true
	case len(args) == 3 && args[0] == "name-rev" && args[1] == "--name-only" && args[2] == "HEAD":
		return head, true
	}
	return text{}, false
}
