package mcp

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// PushIn names the remote.
type PushIn struct {
	Remote string `json:"remote,omitempty" jsonschema:"the remote to push to (default origin)"`
}

// PushOut is push's answer.
type PushOut struct {
	Pushed bool   `json:"pushed"`
	Remote string `json:"remote"`
	Branch string `json:"branch,omitempty"`
	Reason string `json:"reason" jsonschema:"what happened, or why nothing was pushed"`
	Output string `json:"output,omitempty" jsonschema:"git push's own report"`
}

// alwaysProtected are pushed to by people, not agents (as the policy's
// core.git rules hold them: policy.protected_branches adds more).
var alwaysProtected = []string{"main", "master"}

var remoteNameRe = lazyRE(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

func (s *server) pushTool(srv *sdk.Server) {
	sdk.AddTool(srv, &sdk.Tool{Name: "push", Annotations: &sdk.ToolAnnotations{DestructiveHint: ptr(false), OpenWorldHint: ptr(true)},
		Description: "Push the current branch to its remote (default origin), setting the upstream. Never forces; never pushes main, master or a branch of policy.protected_branches; a detached HEAD or a rejected push changes nothing and says why."},
		func(ctx context.Context, _ *sdk.CallToolRequest, in PushIn) (*sdk.CallToolResult, PushOut, error) {
			remote := in.Remote
			if remote == "" {
				remote = "origin"
			}
			if !remoteNameRe().MatchString(remote) {
				return nil, PushOut{}, argError("remote", "%q is not a remote name", remote)
			}
			root, err := repoRoot(ctx, s.o.Dir)
			if err != nil {
				return nil, PushOut{}, err
			}
			remotes, err := gitOK(ctx, root, "remote")
			if err != nil {
				return nil, PushOut{}, err
			}
			if !contains(strings.Fields(remotes), remote) {
				known := strings.Join(strings.Fields(remotes), ", ")
				if known == "" {
					known = "none"
				}
				return nil, PushOut{}, argError("remote", "this repository has no remote %q (remotes: %s)", remote, known)
			}
			return nil, s.push(ctx, root, remote), nil
		})
}

func (s *server) push(ctx context.Context, root, remote string) PushOut {
	out := PushOut{Remote: remote}
	branch, err := currentBranch(ctx, root)
	if err != nil {
		out.Reason = err.Error()
		return out
	}
	if branch == "" {
		out.Reason = "not pushed: HEAD is detached; check out the branch to push"
		return out
	}
	out.Branch = branch
	protected := append(append([]string{}, alwaysProtected...), s.o.Config.Policy.ProtectedBranches...)
	if contains(protected, branch) {
		out.Reason = fmt.Sprintf("not pushed: %s is a protected branch (%s); push a feature branch and open a pull request", branch, strings.Join(protected, ", "))
		return out
	}
	// An explicit refspec without "+": git refuses a non-fast-forward
	// rather than overwrite the remote's history.
	r, err := git(ctx, root, pushTimeout, "", "push", "--porcelain", "--set-upstream", remote, "refs/heads/"+branch+":refs/heads/"+branch)
	out.Output = strings.TrimSpace(r.Stdout + "\n" + r.Stderr)
	if err != nil {
		out.Reason = "not pushed: " + err.Error()
		return out
	}
	if r.Code != 0 {
		why := "git push failed"
		switch {
		case strings.Contains(out.Output, "non-fast-forward") || strings.Contains(out.Output, "fetch first") || strings.Contains(out.Output, "[rejected]"):
			why = "the remote rejected it: " + branch + " on " + remote + " has commits this branch lacks; pull (or rebase) and push again — warden never forces"
		case strings.Contains(out.Output, "[remote rejected]"):
			why = "the remote rejected it (a hook or branch protection on the remote)"
		}
		out.Reason = "not pushed: " + why
		return out
	}
	out.Pushed = true
	out.Reason = fmt.Sprintf("pushed %s to %s", branch, remote)
	if strings.Contains(out.Output, "[up to date]") {
		out.Reason = fmt.Sprintf("%s on %s is already up to date", branch, remote)
	}
	return out
}
