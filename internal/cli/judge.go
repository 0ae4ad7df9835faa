package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/judge"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store"
)

// `warden judge status|log|prompts`: which provider the LLM judges use and
// whether warden-helper (which asks the models) is installed, the recorded judge calls with their
// cost, and the prompt templates (built-in or overridden).

func judgeCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "judge",
		Short: "LLM judges: provider status, recorded calls and cost, prompt templates",
	}
	c.AddCommand(judgeStatusCmd(), judgeLogCmd(), judgePromptsCmd())
	return c
}

func judgeStatusCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "status",
		Short: "Show the provider the judges use, why, and where warden-helper is",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cwd, _ := os.Getwd()
			cfg, _ := config.Load(paths.UserConfig(), cwd)
			out := cmd.OutOrStdout()
			p, why := judge.ResolveProvider(cfg.LLM.Provider, nil, nil)
			fmt.Fprintf(out, "provider: %s (%s)\n", p, why)
			fmt.Fprintf(out, "models:   haiku=%s sonnet=%s opus=%s\n", cfg.LLM.ModelHaiku, cfg.LLM.ModelSonnet, cfg.LLM.ModelOpus)
			bin, err := judge.FindBinary()
			if err != nil {
				fmt.Fprintf(out, "helper:   MISSING: %v\n", err)
				return nil
			}
			fmt.Fprintf(out, "helper:   %s\n", bin)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if b, err := exec.CommandContext(ctx, bin, "version").Output(); err == nil {
				fmt.Fprintf(out, "          %s", b)
			}
			fmt.Fprintf(out, "judges:   tempo=%v intent=%v tool_approve=%v lazy=%v error_ack=%v plan_drift=%v style_drift=%v claude_md=%v\n",
				cfg.Tempo.Enabled, cfg.Validation.Intent, cfg.Validation.ToolApprove, cfg.Validation.Lazy,
				cfg.Validation.ErrorAck, cfg.Validation.PlanDrift, cfg.Validation.StyleDrift, cfg.Validation.ClaudeMD)
			return nil
		},
	}
}

func judgeLogCmd() *cobra.Command {
	var sessionID, name string
	var n int
	var since time.Duration
	var asJSON bool
	c := &cobra.Command{
		Use:   "log",
		Short: "List recorded judge calls: judge, model, tokens, cost, latency, verdict",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := context.Background()
			return withStore(ctx, func(st store.Local) error {
				f := store.JudgementFilter{SessionID: sessionID, Judge: name, Limit: n}
				if since > 0 {
					f.Since = time.Now().Add(-since)
				}
				js, err := st.Judgements(ctx, f)
				if err != nil {
					return err
				}
				out := cmd.OutOrStdout()
				if asJSON {
					enc := json.NewEncoder(out)
					for _, j := range js {
						enc.Encode(j)
					}
					return nil
				}
				tw := tabwriter.NewWriter(out, 0, 2, 2, ' ', 0)
				fmt.Fprintln(tw, "TIME\tJUDGE\tMODEL\tIN\tOUT\tCOST\tMS\tVERDICT\tREASON")
				var cost float64
				for _, j := range js {
					cost += j.CostUSD
					why := j.Reason
					if j.Error != "" {
						why = j.Error
					}
					fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t$%.4f\t%d\t%s\t%s\n", j.Time.Local().Format("01-02 15:04:05"),
						j.Judge, j.Model, j.TokensIn, j.TokensOut, j.CostUSD, j.LatencyMS, j.Verdict, judgeClip(why, 60))
				}
				tw.Flush()
				fmt.Fprintf(out, "%d calls, $%.4f estimated\n", len(js), cost)
				return nil
			})
		},
	}
	c.Flags().StringVar(&sessionID, "session", "", "only this session")
	c.Flags().StringVar(&name, "judge", "", "only this judge (tempo, intent-review, tool-approve, appeal…)")
	c.Flags().IntVarP(&n, "n", "n", 50, "newest N calls (0: all)")
	c.Flags().DurationVar(&since, "since", 0, "only calls this recent (e.g. 24h)")
	c.Flags().BoolVar(&asJSON, "json", false, "one JSON object per line")
	return c
}

func judgePromptsCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "prompts [NAME]",
		Short: "List the prompt templates (built-in or overridden in $WARDEN_HOME/prompts/), or print one",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			out := cmd.OutOrStdout()
			if len(args) == 1 {
				tpl, src := judge.Template(args[0])
				if tpl == "" {
					return fmt.Errorf("no template %q (known: %s)", args[0], strings.Join(judge.TemplateNames(), ", "))
				}
				fmt.Fprintf(out, "# %s (%s)\n%s", args[0], src, tpl)
				return nil
			}
			for _, n := range judge.TemplateNames() {
				_, src := judge.Template(n)
				fmt.Fprintf(out, "%-14s %s\n", n, src)
			}
			return nil
		},
	}
}

func judgeClip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
