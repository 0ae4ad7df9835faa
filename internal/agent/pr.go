package agent

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"time"
)

// Opening a pull request for a task's branch instead of merging it here
// (warden task merge --pr): the project has a GitHub remote and the gh
// CLI is logged in, the branch is pushed to that remote, and `gh pr
// create` opens the request against the base. gh runs with its own login
// (~/.config/gh or GH_TOKEN) and never prompts.

// PROptions says which pull request to open.
type PROptions struct {
	Project string
	Branch  string
	Base    string
	Title   string
	Body    string
	DryRun  bool
	GH      string // the gh executable; "" = gh from PATH
}

// PRResult is the pull request opened (or, dry, the one that would be).
type PRResult struct {
	Remote string `json:"remote"`
	Repo   string `json:"repo"` // owner/name on GitHub
	URL    string `json:"url,omitempty"`
	DryRun bool   `json:"dry_run,omitempty"`
}

// ghTimeout bounds a gh or push call: they talk to GitHub.
const ghTimeout = 2 * time.Minute

var githubURL = regexp.MustCompile(`^(?:https?://(?:[^@/]+@)?github\.com/|git@github\.com:|ssh://git@github\.com/)([\w.-]+)/([\w.-]+?)(?:\.git)?/?$`)

// GitHubRemote finds the project's GitHub remote (origin first): its
// name and owner/repo; "" when it has none.
func GitHubRemote(ctx context.Context, project string) (remote, repo string) {
	out, _ := git(ctx, project, "remote")
	names := lines(out)
	for i, n := range names {
		if n == "origin" {
			names[0], names[i] = names[i], names[0]
		}
	}
	for _, n := range names {
		u, _ := git(ctx, project, "config", "--get", "remote."+n+".url")
		if m := githubURL.FindStringSubmatch(u); m != nil {
			return n, m[1] + "/" + m[2]
		}
	}
	return "", ""
}

// OpenPR pushes o.Branch to the project's GitHub remote and opens a pull
// request into o.Base with gh.
func OpenPR(ctx context.Context, o PROptions) (*PRResult, error) {
	remote, repo := GitHubRemote(ctx, o.Project)
	if remote == "" {
		return nil, &MergeRefusal{Msg: fmt.Sprintf("project %s has no GitHub remote (git remote -v): merge it here without --pr, or add the GitHub remote", o.Project)}
	}
	gh := o.GH
	if gh == "" {
		gh = "gh"
	}
	bin, err := exec.LookPath(gh)
	if err != nil {
		return nil, &MergeRefusal{Msg: "the GitHub CLI (gh) is not installed or not on PATH: https://cli.github.com, then gh auth login"}
	}
	if out, err := runGH(ctx, o.Project, bin, "auth", "status"); err != nil {
		return nil, &MergeRefusal{Msg: "gh is not logged in to GitHub (gh auth status: " + oneLineText(out) + "): run gh auth login"}
	}
	res := &PRResult{Remote: remote, Repo: repo, DryRun: o.DryRun}
	if o.DryRun {
		return res, nil
	}
	if _, err := gitTimed(ctx, ghTimeout, o.Project, "push", "--quiet", remote, "refs/heads/"+o.Branch+":refs/heads/"+o.Branch); err != nil {
		return nil, fmt.Errorf("push %s to %s: %w", o.Branch, remote, err)
	}
	out, err := runGH(ctx, o.Project, bin, "pr", "create", "--repo", repo, "--base", o.Base, "--head", o.Branch,
		"--title", o.Title, "--body", o.Body)
	if err != nil {
		return nil, fmt.Errorf("gh pr create (the branch is pushed to %s): %v: %s", remote, err, oneLineText(out))
	}
	for _, l := range lines(out) {
		if strings.HasPrefix(l, "https://") {
			res.URL = l
		}
	}
	return res, nil
}

// runGH runs gh in dir without prompts; its output (stdout and stderr).
func runGH(ctx context.Context, dir, bin string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, ghTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(cmd.Environ(), "GH_PROMPT_DISABLED=1", "GH_NO_UPDATE_NOTIFIER=1", "NO_COLOR=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 2 * time.Second
	err := cmd.Run()
	return out.String(), err
}
