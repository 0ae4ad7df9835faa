package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/warden-dev/warden/internal/callfacts"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/policy"
)

func newPolicyZonesCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "zones [--json]",
		Short: "Show the verdict table: what each effect on a path gets in each zone",
		Long: `The verdict table judges every effect on a path (rows) by the zone of the
path (columns): core.zones:deny and core.zones:ask fire on its cells.
Shown as this project's config leaves it: policy.zones (user config only)
sets cells either way, policy.zones_raise (a project may add it) only
tightens them. Entries are "effect:zone=verdict", e.g.
"recursive-delete:home-data=ask".`,
		RunE: func(cmd *cobra.Command, args []string) error {
			env, err := loadPolicyEnv(nil)
			if err != nil {
				return err
			}
			o := policy.OptionsFrom(env.cfg, paths.Home())
			return printZoneTable(cmd.OutOrStdout(), policy.ZoneTableFor(&o), asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"effects","zones","verdicts":{effect:{zone:verdict}}} as JSON`)
	return cmd
}

func printZoneTable(w io.Writer, t policy.ZoneTable, asJSON bool) error {
	verdict := func(e callfacts.PathEffect, z callfacts.Zone) string {
		if m := t.Verdict(e, z); m != policy.Off {
			return string(m)
		}
		return "allow"
	}
	if asJSON {
		out := struct {
			Effects  []callfacts.PathEffect       `json:"effects"`
			Zones    []callfacts.Zone             `json:"zones"`
			Verdicts map[string]map[string]string `json:"verdicts"`
		}{callfacts.PathEffects(), callfacts.Zones(), map[string]map[string]string{}}
		for _, e := range out.Effects {
			out.Verdicts[string(e)] = map[string]string{}
			for _, z := range out.Zones {
				out.Verdicts[string(e)][string(z)] = verdict(e, z)
			}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', 0)
	fmt.Fprint(tw, "effect \\ zone")
	for _, z := range callfacts.Zones() {
		fmt.Fprint(tw, "\t", z)
	}
	fmt.Fprintln(tw)
	for _, e := range callfacts.PathEffects() {
		fmt.Fprint(tw, e)
		for _, z := range callfacts.Zones() {
			fmt.Fprint(tw, "\t", verdict(e, z))
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}
