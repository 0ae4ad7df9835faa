package mcp

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// CommitIn optionally carries the message.
type CommitIn struct {
	Message   string `json:"message,omitempty" jsonschema:"a conventional commit message to use instead of the one the small model writes (type(scope): subject)"`
	SkipCheck bool   `json:"skip_check,omitempty" jsonschema:"confirm without running check first"`
}

// CommitOut is commit's answer. Committed is false whenever nothing was
// changed: nothing staged, a detached HEAD, a declined or unconfirmed
// change, a failing git commit.
type CommitOut struct {
	Committed bool       `json:"committed"`
	Commit    string     `json:"commit,omitempty" jsonschema:"the new commit's hash"`
	Branch    string     `json:"branch,omitempty"`
	Message   string     `json:"message,omitempty"`
	Reason    string     `json:"reason" jsonschema:"what happened, or why nothing was committed"`
	Confirm   ConfirmOut `json:"confirm" jsonschema:"the confirm verdict on the staged diff"`
}

var conventionalRe = lazyRE(`^(feat|fix|docs|style|refactor|perf|test|build|ci|chore|revert)(\([\w./,-]+\))?!?: \S.{0,99}$`)

func (s *server) commitTool(srv *sdk.Server) {
	sdk.AddTool(srv, &sdk.Tool{Name: "commit", Annotations: mutating,
		Description: "Commit the staged changes: runs confirm on the staged diff, writes a conventional commit message with the small model (or uses the one given), and commits. Refuses, changing nothing, on DECLINED, when the judge is unavailable, with nothing staged, or on a detached HEAD."},
		func(ctx context.Context, _ *sdk.CallToolRequest, in CommitIn) (*sdk.CallToolResult, CommitOut, error) {
			msg := strings.TrimSpace(in.Message)
			if msg != "" && !conventionalRe().MatchString(firstLineRaw(msg)) {
				return nil, CommitOut{}, argError("message", "%q is not a conventional commit subject; write type(scope): subject, type one of feat fix docs style refactor perf test build ci chore revert, at most 100 characters", clip(firstLineRaw(msg), 120))
			}
			root, err := repoRoot(ctx, s.o.Dir)
			if err != nil {
				return nil, CommitOut{}, err
			}
			return nil, s.commit(ctx, root, msg, !in.SkipCheck), nil
		})
}

func (s *server) commit(ctx context.Context, root, msg string, withCheck bool) CommitOut {
	var out CommitOut
	out.Confirm.Reasons, out.Confirm.Files = []Reason{}, []string{}
	branch, err := currentBranch(ctx, root)
	if err != nil {
		out.Reason = err.Error()
		return out
	}
	if branch == "" {
		out.Reason = "not committed: HEAD is detached; check out a branch (git switch -c NAME) and commit there"
		return out
	}
	out.Branch = branch
	d, err := s.diff(ctx, root, ConfirmIn{Staged: true})
	if err != nil {
		out.Reason = err.Error()
		return out
	}
	if strings.TrimSpace(d.Text) == "" {
		out.Reason = "nothing to commit: nothing is staged (stage the changes with git add first)"
		out.Confirm = ConfirmOut{Verdict: NoChanges, Summary: "nothing staged", Diff: d.What, Reasons: []Reason{}, Files: []string{}}
		return out
	}
	out.Confirm = s.confirm(ctx, root, d, withCheck)
	switch out.Confirm.Verdict {
	case Confirmed:
	case Declined:
		out.Reason = "not committed: confirm DECLINED the staged change — " + reasonsText(out.Confirm)
		return out
	default:
		out.Reason = "not committed: " + out.Confirm.Summary
		if out.Confirm.Judge.Error != "" {
			out.Reason += " (" + out.Confirm.Judge.Error + ")"
		}
		return out
	}
	if msg == "" {
		if msg, err = s.commitMessage(ctx, d); err != nil {
			out.Reason = "not committed: the change was confirmed but no commit message could be written: " + err.Error() + "; call commit again with a message"
			return out
		}
	}
	// The index may have changed while the judge read it: commit only
	// what was judged.
	now, err := gitOK(ctx, root, "diff", "--cached", "--no-color", "--no-ext-diff")
	if err != nil || now != d.Text {
		out.Reason = "not committed: the staged changes changed while confirm judged them; call commit again"
		return out
	}
	r, err := git(ctx, root, gitTimeout, msg+"\n", "commit", "--quiet", "--file", "-")
	if err != nil {
		out.Reason = "not committed: " + err.Error()
		return out
	}
	if r.Code != 0 {
		out.Reason = "not committed: git commit failed: " + firstLine(r.Stderr+r.Stdout)
		return out
	}
	sha, _ := gitOK(ctx, root, "rev-parse", "HEAD")
	out.Committed, out.Commit, out.Message = true, strings.TrimSpace(sha), msg
	out.Reason = fmt.Sprintf("committed %s on %s: %s", clip(out.Commit, 12), branch, firstLineRaw(msg))
	return out
}

func reasonsText(c ConfirmOut) string {
	if len(c.Reasons) == 0 {
		return c.Summary
	}
	var parts []string
	for _, r := range c.Reasons {
		switch {
		case r.File != "" && r.Line > 0:
			parts = append(parts, fmt.Sprintf("%s:%d: %s", r.File, r.Line, r.Text))
		case r.File != "":
			parts = append(parts, r.File+": "+r.Text)
		default:
			parts = append(parts, r.Text)
		}
	}
	return strings.Join(parts, "; ")
}

const messageSystem = `You write git commit messages in the Conventional Commits format. Answer with the message only: a subject line "type(scope): summary" (type one of feat, fix, docs, style, refactor, perf, test, build, ci, chore, revert; imperative mood; at most 72 characters), then optionally a blank line and a short body saying why. No code fences, no quotes.`

// commitMessage asks the small model for a conventional message; a reply
// whose subject is not conventional is asked for once more.
func (s *server) commitMessage(ctx context.Context, d diffSel) (string, error) {
	a := ask{Judge: "mcp-commit-message", Tier: "haiku", System: messageSystem,
		Prompt:   fmt.Sprintf("Write the commit message for this staged change (%d file(s): %s):\n\n```diff\n%s\n```\n", len(d.Files), strings.Join(d.Files, ", "), clip(d.Text, 60<<10)),
		Deadline: ms(s.o.Config.LLM.TimeoutMS), MaxTokens: 512}
	for try := 0; try < 2; try++ {
		text, resp, err := s.complete(ctx, a)
		if err != nil {
			return "", err
		}
		msg := cleanMessage(text)
		ok := conventionalRe().MatchString(firstLineRaw(msg))
		resp.Verdict.Pass, resp.Verdict.Decision, resp.Verdict.Reason = ok, "MESSAGE", firstLineRaw(msg)
		s.record(a, resp)
		if ok {
			return msg, nil
		}
		a.Prompt += "\nYour previous answer was not a conventional commit message:\n" + clip(text, 300) + "\nAnswer again, subject first, in the format."
	}
	return "", fmt.Errorf("the model's message is not a conventional commit message")
}

// cleanMessage strips what models wrap messages in: fences, quotes, a
// "Commit message:" label.
func cleanMessage(text string) string {
	t := strings.TrimSpace(text)
	t = strings.TrimPrefix(t, "```text")
	t = strings.TrimPrefix(t, "```")
	t = strings.TrimSuffix(t, "```")
	t = strings.TrimSpace(t)
	for _, p := range []string{"Commit message:", "commit message:"} {
		t = strings.TrimSpace(strings.TrimPrefix(t, p))
	}
	return strings.Trim(t, "\"'` \n")
}

func firstLineRaw(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(s)
}
