package mcp

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-dev/warden/internal/judge"
	"github.com/warden-dev/warden/internal/judge/llm"
)

// ConfirmIn selects the diff to judge.
type ConfirmIn struct {
	Base   string `json:"base,omitempty" jsonschema:"judge the working tree against this commit, branch or tag (e.g. main) instead of the staged changes"`
	Staged bool   `json:"staged,omitempty" jsonschema:"judge only the staged changes (default: the staged changes when there are any, else the working tree against HEAD)"`
	// SkipCheck leaves out the check run that comes first.
	SkipCheck bool `json:"skip_check,omitempty" jsonschema:"do not run check first (the chain is confirm → check: failing checks decline the change without asking the judge)"`
}

// Reason is one of the judge's reasons, tied to a file and line when it
// named one.
type Reason struct {
	File string `json:"file,omitempty" jsonschema:"file the reason is about, relative to the project"`
	Line int    `json:"line,omitempty" jsonschema:"line in that file"`
	Text string `json:"text" jsonschema:"what is wrong or notable"`
}

// JudgeInfo says who judged and what it read.
type JudgeInfo struct {
	Provider string   `json:"provider" jsonschema:"anthropic, claude-cli or none"`
	Model    string   `json:"model,omitempty"`
	Turns    int      `json:"turns,omitempty" jsonschema:"model turns spent"`
	Calls    []string `json:"calls,omitempty" jsonschema:"the read-only tool calls the judge made"`
	Error    string   `json:"error,omitempty" jsonschema:"why the judge could not answer"`
}

// Verdicts of confirm.
const (
	Confirmed    = "CONFIRMED"
	Declined     = "DECLINED"
	NotConfirmed = "NOT_CONFIRMED" // the judge could not answer: never a pass
	NoChanges    = "NO_CHANGES"
)

// ConfirmOut is confirm's answer.
type ConfirmOut struct {
	Verdict   string    `json:"verdict" jsonschema:"CONFIRMED, DECLINED, NOT_CONFIRMED (judge unavailable) or NO_CHANGES"`
	Confirmed bool      `json:"confirmed" jsonschema:"true only for CONFIRMED"`
	Summary   string    `json:"summary" jsonschema:"one line for the user"`
	Reasons   []Reason  `json:"reasons" jsonschema:"the judge's reasons, tied to files and lines"`
	Diff      string    `json:"diff" jsonschema:"what was judged: staged, working tree against HEAD, or against a base"`
	Files     []string  `json:"files" jsonschema:"the files the diff changes"`
	Judge     JudgeInfo `json:"judge"`
	Check     *CheckOut `json:"check,omitempty" jsonschema:"the check run that came first"`
}

// maxDiff is how much of the diff goes into the prompt; the judge reads
// the rest with its tools.
const maxDiff = 120 << 10

func (s *server) confirmTool(srv *sdk.Server) {
	sdk.AddTool(srv, &sdk.Tool{Name: "confirm", Annotations: readOnly,
		Description: "Code-quality gate over the git diff (staged, or the working tree against HEAD or a base): a judge reads the diff and the project (read-only Read, Glob, Grep) and answers CONFIRMED or DECLINED with reasons tied to files and lines. A judge that cannot answer gives NOT_CONFIRMED, never a pass."},
		func(ctx context.Context, _ *sdk.CallToolRequest, in ConfirmIn) (*sdk.CallToolResult, ConfirmOut, error) {
			root, err := repoRoot(ctx, s.o.Dir)
			if err != nil {
				return nil, ConfirmOut{}, err
			}
			d, err := s.diff(ctx, root, in)
			if err != nil {
				return nil, ConfirmOut{}, err
			}
			return nil, s.confirm(ctx, root, d, !in.SkipCheck), nil
		})
}

// diffSel is a diff taken from git.
type diffSel struct {
	What  string // "staged", "working tree against HEAD", "working tree against main"
	Text  string
	Files []string
}

func (s *server) diff(ctx context.Context, root string, in ConfirmIn) (diffSel, error) {
	var args []string
	var what string
	switch {
	case in.Base != "" && in.Staged:
		return diffSel{}, argError("staged", "give either base or staged, not both")
	case in.Base != "":
		if strings.HasPrefix(in.Base, "-") {
			return diffSel{}, argError("base", "%q is not a commit", in.Base)
		}
		if _, err := gitOK(ctx, root, "rev-parse", "--verify", "--quiet", in.Base+"^{commit}"); err != nil {
			return diffSel{}, argError("base", "%q is not a commit, branch or tag of this repository", in.Base)
		}
		args, what = []string{in.Base}, "working tree against "+in.Base
	default:
		staged, err := gitOK(ctx, root, "diff", "--cached", "--name-only")
		if err != nil {
			return diffSel{}, err
		}
		if in.Staged || strings.TrimSpace(staged) != "" {
			args, what = []string{"--cached"}, "staged"
		} else if _, err := gitOK(ctx, root, "rev-parse", "--verify", "--quiet", "HEAD"); err != nil {
			// No commit yet: nothing staged means nothing to judge.
			return diffSel{What: "staged"}, nil
		} else {
			args, what = []string{"HEAD"}, "working tree against HEAD"
		}
	}
	names, err := gitOK(ctx, root, append([]string{"diff", "--name-only"}, args...)...)
	if err != nil {
		return diffSel{}, err
	}
	text, err := gitOK(ctx, root, append([]string{"diff", "--no-color", "--no-ext-diff"}, args...)...)
	if err != nil {
		return diffSel{}, err
	}
	d := diffSel{What: what, Text: text}
	for _, n := range strings.Split(strings.TrimSpace(names), "\n") {
		if n != "" {
			d.Files = append(d.Files, n)
		}
	}
	return d, nil
}

const confirmFormat = `Answer with your verdict: the first line is exactly CONFIRMED or DECLINED, nothing before it. Then one line per reason, each "- path:line: reason" (path relative to the project; leave out :line only when no line applies). For CONFIRMED, reasons are optional notes.`

const confirmSystem = `You are warden's code-quality gate. Before a change is committed you judge its git diff: is it correct, complete and fit to commit? Look for bugs, unhandled errors, missing or broken tests for changed behaviour, debugging leftovers, secrets, dead code, and changes that contradict the code around them. You may read the project with Read, Glob and Grep (read-only, inside the project) to check how the changed code is used. Be concrete: every reason names a file and line. Decline only for real problems, not for taste.

` + confirmFormat

// confirm judges d, after running check when withCheck. It never returns
// a pass it did not get from a judge.
func (s *server) confirm(ctx context.Context, root string, d diffSel, withCheck bool) ConfirmOut {
	out := ConfirmOut{Diff: d.What, Files: d.Files, Reasons: []Reason{}}
	if out.Files == nil {
		out.Files = []string{}
	}
	if strings.TrimSpace(d.Text) == "" {
		out.Verdict, out.Summary = NoChanges, "nothing to confirm: the "+d.What+" diff is empty"
		return out
	}
	if withCheck {
		c := s.check(ctx, ms(s.o.Config.MCP.CheckTimeoutMS))
		out.Check = &c
		if !c.Passed {
			out.Verdict, out.Summary = Declined, "declined: the checks fail"
			for _, r := range c.Commands {
				if !r.Passed {
					out.Reasons = append(out.Reasons, Reason{Text: fmt.Sprintf("%s fails (exit %d): %s", r.Command, r.ExitCode, firstLine(lastLines(r.Output, 3)))})
				}
			}
			return out
		}
	}
	prompt := fmt.Sprintf("The change to judge (%s), %d file(s): %s\n\n```diff\n%s\n```\n",
		d.What, len(d.Files), strings.Join(d.Files, ", "), clip(d.Text, maxDiff))
	if len(d.Text) > maxDiff {
		prompt += "\n(The diff is cut here; Read the files for the rest.)\n"
	}
	prov, why := s.provider()
	out.Judge.Provider = prov
	a := ask{Judge: "mcp-confirm", Tier: "sonnet", System: confirmSystem, Prompt: prompt,
		Deadline: ms(s.o.Config.MCP.ConfirmTimeoutMS), MaxTokens: agentMaxTokens}
	var text string
	var err error
	resp := judge.Response{Judge: a.Judge, Provider: prov}
	switch prov {
	case judge.ProviderNone:
		err = unavailable("no LLM provider (%s)", why)
	case judge.ProviderAnthropic:
		var run agentRun
		run, err = s.confirmAgent(ctx, root, a)
		text, out.Judge.Model, out.Judge.Turns, out.Judge.Calls = run.Text, run.Model, run.Turns, run.Calls
		resp.Model, resp.TokensIn, resp.TokensOut, resp.Attempts = run.Model, run.TokensIn, run.TokensOut, run.Turns
		resp.CostUSD = llm.EstimateCost(run.Model, run.TokensIn, run.TokensOut)
	default:
		// claude -p answers in one turn, from the diff alone.
		text, resp, err = s.complete(ctx, a)
		out.Judge.Model, out.Judge.Turns = resp.Model, 1
	}
	if err == nil {
		v, summary, reasons, ok := parseConfirm(text)
		if !ok {
			err = unavailable("the judge's reply carries no verdict: %q", clip(strings.TrimSpace(text), 200))
		} else {
			out.Verdict, out.Confirmed, out.Reasons = v, v == Confirmed, reasons
			out.Summary = summary
			resp.Verdict = judge.Verdict{Pass: out.Confirmed, Decision: v, Reason: summary}
		}
	}
	if err != nil {
		out.Verdict, out.Confirmed = NotConfirmed, false
		out.Summary = "not confirmed: judge unavailable"
		out.Judge.Error = strings.TrimPrefix(err.Error(), errUnavailable.Error()+": ")
		if !errors.Is(err, errUnavailable) {
			out.Judge.Error = err.Error()
		}
		resp.FailedOpen, resp.Error = true, out.Judge.Error
	}
	if prov != judge.ProviderNone {
		s.record(a, resp)
	}
	return out
}

func (s *server) confirmAgent(ctx context.Context, root string, a ask) (agentRun, error) {
	fsys, err := newProjectFS(root)
	if err != nil {
		return agentRun{}, err
	}
	models := judge.Chain(s.o.Config, a.Tier)
	if len(models) == 0 {
		return agentRun{}, unavailable("no model configured for tier %s", a.Tier)
	}
	ctx, cancel := context.WithTimeout(ctx, a.Deadline)
	defer cancel()
	return runAgent(ctx, anthropicClient(s.o.Getenv), models, a.System, a.Prompt, fsys, s.o.Config.MCP.ConfirmTurns,
		func(t string) bool { _, _, _, ok := parseConfirm(t); return ok })
}

var (
	verdictRe = lazyRE(`^(CONFIRMED|DECLINED)\b[:.\s—–-]*(.*)$`)
	reasonRe  = lazyRE(`^(?:[-*•]|\d+[.)])?\s*([^\s:]+\.[A-Za-z0-9]+|[^\s:]+/[^\s:]+)(?::(\d+)(?:[-–]\d+)?)?\s*[:—–-]\s*(.+)$`)
	emphasis  = strings.NewReplacer("**", "", "__", "", "`", "", "#", "")
)

// parseConfirm reads a verdict: the first line that starts with CONFIRMED
// or DECLINED (markdown emphasis and a "Verdict:" label tolerated), then
// the reasons below it.
func parseConfirm(text string) (verdict, summary string, reasons []Reason, ok bool) {
	reasons = []Reason{}
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	at := -1
	for i, l := range lines {
		l = strings.TrimSpace(emphasis.Replace(l))
		l = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(l, "Verdict:"), "VERDICT:"))
		if m := verdictRe().FindStringSubmatch(l); m != nil {
			verdict, summary, at = m[1], strings.TrimSpace(m[2]), i
			break
		}
	}
	if at < 0 {
		return "", "", reasons, false
	}
	for _, l := range lines[at+1:] {
		l = strings.TrimSpace(emphasis.Replace(l))
		if l == "" {
			continue
		}
		if m := reasonRe().FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[2])
			reasons = append(reasons, Reason{File: m[1], Line: n, Text: strings.TrimSpace(m[3])})
			continue
		}
		t := strings.TrimSpace(strings.TrimLeft(l, "-*• "))
		reasons = append(reasons, Reason{Text: t})
	}
	if summary == "" {
		switch {
		case verdict == Confirmed:
			summary = "confirmed: the change is fit to commit"
		case len(reasons) > 0:
			summary = fmt.Sprintf("declined: %d reason(s)", len(reasons))
		default:
			summary = "declined"
		}
	}
	return verdict, summary, reasons, true
}

// lastLines is the last n non-empty lines of s, joined by " | ".
func lastLines(s string, n int) string {
	var keep []string
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := len(lines) - 1; i >= 0 && len(keep) < n; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			keep = append([]string{l}, keep...)
		}
	}
	return strings.Join(keep, " | ")
}
