package cmds

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/exitcode"
	"github.com/warden-dev/warden/internal/judge"
	"github.com/warden-dev/warden/internal/judge/llm"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/version"
)

// newJudgeCmd is `warden-helper judge`, what the hooks run when a judge
// needs a model (internal/judge.Ask, StartLazy):
//
//	warden-helper judge          read a judge.Request (JSON) on stdin, print a judge.Response (JSON)
//	warden-helper judge run ID   run the lazy request stored under ID and store its verdict
//	warden-helper judge probe    print which provider the judges would use and why (JSON; no network)
//
// Every call is recorded in the store (judgements table). Whatever goes
// wrong fails open: the response passes and says why.
func newJudgeCmd() *cobra.Command {
	return &cobra.Command{
		Use:                "judge [run ID | probe]",
		Short:              "Ask a model for a judge: a request on stdin, the response on stdout (run by hooks)",
		Hidden:             true,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if code := runJudge(args, cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr()); code != 0 {
				return exitcode.Error{Code: code}
			}
			return nil
		},
	}
}

// maxRequest caps the request read from stdin.
const maxRequest = 8 << 20

func runJudge(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return ask(stdin, stdout)
	}
	switch args[0] {
	case "run":
		if len(args) != 2 {
			fmt.Fprintln(stderr, "usage: warden-helper judge run ID")
			return exitcode.Usage
		}
		id, err := strconv.ParseInt(args[1], 10, 64)
		if err != nil {
			fmt.Fprintln(stderr, "warden-helper judge run: bad id:", args[1])
			return exitcode.Usage
		}
		if err := runLazy(id); err != nil {
			fmt.Fprintln(stderr, "warden-helper judge run:", err)
			return exitcode.Failure
		}
		return exitcode.OK
	case "probe":
		return probe(stdout)
	}
	fmt.Fprintf(stderr, "warden-helper judge: unknown command %q (use: run ID, probe, or a request on stdin)\n", args[0])
	return exitcode.Usage
}

// openLocal opens the local SQLite store, where the hooks' judge calls are
// recorded.
func openLocal(ctx context.Context) (llm.JudgementStore, error) { return sqlite.Open(ctx, paths.DB()) }

// shared lends an open store to a recorder that must not close it.
type shared struct{ *sqlite.Store }

func (shared) Close() error { return nil }

func engineFor(req *judge.Request, rec *llm.StoreRecorder) *llm.Engine {
	return &llm.Engine{Provider: llm.New(req.Provider, os.Getenv), Recorder: rec}
}

// ask answers one request from stdin. It always prints a response.
func ask(stdin io.Reader, stdout io.Writer) int {
	b, err := io.ReadAll(io.LimitReader(stdin, maxRequest))
	var req judge.Request
	if err == nil {
		err = json.Unmarshal(b, &req)
	}
	var resp judge.Response
	if err != nil {
		resp = judge.FailOpen(&judge.Request{Kind: judge.KindCheck}, "bad request: "+err.Error())
	} else {
		rec := &llm.StoreRecorder{Open: openLocal}
		defer rec.Close()
		resp = engineFor(&req, rec).Ask(context.Background(), &req)
	}
	out, _ := json.Marshal(resp)
	fmt.Fprintln(stdout, string(out))
	return exitcode.OK
}

// runLazy runs a stored request and stores its verdict (passed, failed, or
// error when it failed open).
func runLazy(id int64) error {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, paths.DB())
	if err != nil {
		return err
	}
	defer st.Close()
	rec := &llm.StoreRecorder{Open: func(context.Context) (llm.JudgementStore, error) { return shared{st}, nil }}
	p, err := st.Pending(ctx, id)
	if err != nil {
		return err
	}
	if p == nil || p.State != "pending" {
		return nil
	}
	var req judge.Request
	if err := json.Unmarshal(p.Request, &req); err != nil {
		return st.FinishPending(ctx, id, "error", "bad stored request: "+err.Error())
	}
	req.Lazy = true
	resp := engineFor(&req, rec).Ask(ctx, &req)
	final := resp.Final()
	switch {
	case final.FailedOpen:
		return st.FinishPending(ctx, id, "error", final.Error)
	case final.Verdict.Pass:
		return st.FinishPending(ctx, id, "passed", "")
	}
	return st.FinishPending(ctx, id, "failed", final.Verdict.Reason)
}

// Probe is what `warden-helper judge probe` prints (warden doctor reads it).
type Probe struct {
	Version  string `json:"version"`
	Setting  string `json:"setting"`
	Provider string `json:"provider"`
	Why      string `json:"why"`
	Claude   string `json:"claude,omitempty"`
	Models   struct {
		Haiku  string `json:"haiku"`
		Sonnet string `json:"sonnet"`
		Opus   string `json:"opus"`
	} `json:"models"`
	Time time.Time `json:"time"`
}

func probe(stdout io.Writer) int {
	cwd, _ := os.Getwd()
	cfg, _ := config.Load(paths.UserConfig(), cwd)
	var p Probe
	p.Version, p.Setting, p.Time = version.String(), cfg.LLM.Provider, time.Now().UTC()
	p.Provider, p.Why = judge.ResolveProvider(cfg.LLM.Provider, os.Getenv, exec.LookPath)
	if c, err := exec.LookPath("claude"); err == nil {
		p.Claude = c
	}
	p.Models.Haiku, p.Models.Sonnet, p.Models.Opus = cfg.LLM.ModelHaiku, cfg.LLM.ModelSonnet, cfg.LLM.ModelOpus
	b, _ := json.MarshalIndent(p, "", "  ")
	fmt.Fprintln(stdout, string(b))
	return exitcode.OK
}
