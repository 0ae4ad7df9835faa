package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/exitcode"
	"github.com/warden-dev/warden/internal/paths"
)

func newConfigCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Show and check warden's configuration",
		Long: `warden reads two TOML files: the user config ($WARDEN_HOME/config.toml,
default ~/.warden/config.toml) and the project config
(<project>/.warden/config.toml). A project config may only tighten guards,
never loosen them; "warden config show --defaults" lists every key with its
type, default, range and what a project may do with it.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newConfigShowCmd(), newConfigCheckCmd())
	return cmd
}

func newConfigShowCmd() *cobra.Command {
	var defaults, asJSON bool
	var project string
	cmd := &cobra.Command{
		Use:   "show [--defaults] [--json] [--project DIR]",
		Short: "Show the effective config and where each value comes from",
		Long: `Show every key's effective value and its source: default, user (with the
line in the user config) or project. With --defaults, list every key with
its type, default, accepted range, project policy and doc instead.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if defaults {
				return showDefaults(cmd.OutOrStdout(), asJSON)
			}
			dir, err := configProjectDir(project)
			if err != nil {
				return err
			}
			return showEffective(cmd.OutOrStdout(), cmd.ErrOrStderr(), dir, asJSON)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&defaults, "defaults", false, "list every key with its type, default, range, project policy and doc")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	f.StringVar(&project, "project", "", "project directory (default: the current directory)")
	return cmd
}

func newConfigCheckCmd() *cobra.Command {
	var asJSON bool
	var project string
	cmd := &cobra.Command{
		Use:   "check [--project DIR] [--json]",
		Short: "Report every problem in the user and project config (exit 1 if any)",
		Long: `Check the user config and the project config and print every problem as
file:line: message: syntax errors, unknown keys, wrong types, values out of
range, and project values that would loosen a guard. Hooks ignore each of
these and use the default (or the user's value) instead. Exits 1 when there
is a problem.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dir, err := configProjectDir(project)
			if err != nil {
				return err
			}
			return checkConfig(cmd.OutOrStdout(), cmd.ErrOrStderr(), dir, asJSON)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&asJSON, "json", false, "print JSON")
	f.StringVar(&project, "project", "", "project directory (default: the current directory)")
	return cmd
}

// configProjectDir is --project made absolute (so problems name full
// paths), or the current directory.
func configProjectDir(flag string) (string, error) {
	if flag != "" {
		return filepath.Abs(flag)
	}
	return os.Getwd()
}

func checkConfig(out, errOut io.Writer, projectDir string, asJSON bool) error {
	userFile := paths.UserConfig()
	cfg, problems := config.Load(userFile, projectDir)
	notes := config.Notes(cfg)
	checked := configFilesPresent(userFile, projectDir)
	daemon := daemonConfigStatus(userFile)
	if asJSON {
		j := map[string]any{
			"ok":       len(problems) == 0,
			"files":    nonNil(checked),
			"problems": nonNil(problems),
			"notes":    nonNil(notes),
		}
		if daemon != nil {
			j["daemon"] = daemon
		}
		writeConfigJSON(out, j)
	} else {
		if daemon != nil {
			defer fmt.Fprintln(out, "daemon: "+daemon.Message)
		}
		for _, p := range problems {
			fmt.Fprintln(out, p.String())
		}
		for _, n := range notes {
			fmt.Fprintln(out, "note: "+n)
		}
		switch {
		case len(problems) > 0:
			fmt.Fprintf(errOut, "%d config problem(s): warden ignores these settings and uses the default (or the user value) instead\n", len(problems))
		case len(checked) == 0:
			fmt.Fprintf(out, "config OK: no config file at %s or %s; defaults in use\n",
				userFile, paths.ProjectConfig(projectDir))
		default:
			fmt.Fprintf(out, "config OK: %s\n", strings.Join(checked, ", "))
		}
	}
	if len(problems) > 0 {
		return ExitError{Code: exitcode.Failure}
	}
	return nil
}

// configFilesPresent lists the config files that exist, the user file
// first; a project file that is the user file itself is listed once.
func configFilesPresent(userFile, projectDir string) []string {
	var out []string
	ui, uerr := os.Stat(userFile)
	if uerr == nil {
		out = append(out, userFile)
	}
	proj := paths.ProjectConfig(projectDir)
	if pi, err := os.Stat(proj); err == nil && (uerr != nil || !os.SameFile(ui, pi)) {
		out = append(out, proj)
	}
	return out
}

func showEffective(out, errOut io.Writer, projectDir string, asJSON bool) error {
	userFile, projectFile := paths.UserConfig(), paths.ProjectConfig(projectDir)
	settings, problems := config.Effective(userFile, projectDir)
	if asJSON {
		writeConfigJSON(out, map[string]any{
			"user_file":    userFile,
			"project_file": projectFile,
			"settings":     settings,
			"problems":     nonNil(problems),
		})
		return nil
	}
	present := configFilesPresent(userFile, projectDir)
	found := func(path string) string {
		for _, p := range present {
			if p == path {
				return path
			}
		}
		return path + " (none)"
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "user config:    %s\nproject config: %s\n\n", found(userFile), found(projectFile))
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY\tVALUE\tSOURCE")
	for _, s := range settings {
		src := s.Source
		if s.Line > 0 {
			src += ":" + strconv.Itoa(s.Line)
		}
		// Long values (pattern lists, texts) are cut so the source column
		// stays on screen; --json has them whole.
		fmt.Fprintf(tw, "%s\t%s\t%s\n", s.Key, clipCell(config.FormatValue(s.Value), 40), src)
	}
	tw.Flush()
	writeClipped(out, buf.String())
	if len(problems) > 0 {
		fmt.Fprintf(errOut, "\n%d config problem(s) (the values above already work around them): run `warden config check`\n", len(problems))
	}
	return nil
}

func showDefaults(out io.Writer, asJSON bool) error {
	keys := config.Keys()
	if asJSON {
		type keyDoc struct {
			Name    string   `json:"name"`
			Type    string   `json:"type"`
			Default any      `json:"default"`
			Range   string   `json:"range"`
			Min     *float64 `json:"min,omitempty"`
			Max     *float64 `json:"max,omitempty"`
			Allowed []string `json:"allowed,omitempty"`
			Unit    string   `json:"unit,omitempty"`
			Policy  string   `json:"policy"`
			Doc     string   `json:"doc"`
		}
		type policyDoc struct {
			Name string `json:"name"`
			Rule string `json:"rule"`
		}
		docs := make([]keyDoc, len(keys))
		for i, k := range keys {
			docs[i] = keyDoc{Name: k.Name, Type: k.Kind.String(), Default: k.Default, Range: k.Range(),
				Allowed: k.Allowed, Unit: k.Unit, Policy: k.Policy.String(), Doc: k.Doc}
			if k.Min != 0 || k.Max != 0 {
				docs[i].Min, docs[i].Max = &k.Min, &k.Max
			}
		}
		var pols []policyDoc
		for _, p := range config.Policies() {
			pols = append(pols, policyDoc{p.String(), p.Rule()})
		}
		writeConfigJSON(out, map[string]any{"keys": docs, "policies": pols})
		return nil
	}

	// Lay out the rows as one table first, then put each key's doc under
	// its row: a line without tabs would end tabwriter's column block.
	var rows bytes.Buffer
	tw := tabwriter.NewWriter(&rows, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY\tTYPE\tDEFAULT\tRANGE\tPROJECT")
	// A long default (a list of patterns, a reminder text) would make the
	// column as wide as itself: it goes under the row instead.
	const maxDefaultCell = 16
	for _, k := range keys {
		def, rng := k.DefaultString(), cfgRange(k)
		if len(def) > maxDefaultCell {
			def = "(below)"
		}
		if len(rng) > maxDefaultCell {
			rng = "(below)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", k.Name, k.Kind, def, rng, k.Policy)
	}
	tw.Flush()
	lines := strings.Split(strings.TrimRight(rows.String(), "\n"), "\n")
	width := terminalWidth()
	// Too narrow for the table: one block per key rather than clipped rows.
	stacked := width > 0 && len(lines[0]) > width
	var buf bytes.Buffer
	if !stacked {
		buf.WriteString(lines[0] + "\n")
	}
	for i, k := range keys {
		if stacked {
			buf.WriteString(k.Name + "\n")
			facts := fmt.Sprintf("%s, default %s, range %s, project %s", k.Kind, k.DefaultString(), cfgRange(k), k.Policy)
			for _, line := range cfgWrap(facts, width-4) {
				buf.WriteString("    " + line + "\n")
			}
		} else {
			buf.WriteString(lines[i+1] + "\n")
		}
		for _, line := range cfgWrap(k.Doc, width-4) {
			buf.WriteString("    " + line + "\n")
		}
		if def := k.DefaultString(); !stacked && len(def) > maxDefaultCell {
			for _, line := range cfgWrap("default: "+def, width-4) {
				buf.WriteString("    " + line + "\n")
			}
		}
		if rng := cfgRange(k); !stacked && len(rng) > maxDefaultCell {
			for _, line := range cfgWrap("range: "+rng, width-4) {
				buf.WriteString("    " + line + "\n")
			}
		}
	}
	writeClipped(out, buf.String())

	buf.Reset()
	for _, line := range cfgWrap("A project config (<project>/.warden/config.toml) may only tighten guards, never loosen them:", width) {
		buf.WriteString(line + "\n")
	}
	for _, p := range config.Policies() {
		name := fmt.Sprintf("  %-13s", p)
		for i, line := range cfgWrap(p.Rule(), width-len(name)) {
			if i > 0 {
				name = strings.Repeat(" ", len(name))
			}
			buf.WriteString(name + line + "\n")
		}
	}
	io.WriteString(out, "\n"+buf.String())
	return nil
}

// cfgRange is a key's accepted values with the unit of a ranged number.
func cfgRange(k config.Key) string {
	if k.Unit != "" && (k.Min != 0 || k.Max != 0) {
		return k.Range() + " " + k.Unit
	}
	return k.Range()
}

// cfgWrap breaks text into lines of at most width bytes at spaces; width <= 0
// means one line.
func cfgWrap(text string, width int) []string {
	if width <= 0 || len(text) <= width {
		return []string{text}
	}
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}

func writeConfigJSON(out io.Writer, v any) {
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}

// nonNil makes an empty list encode as [] rather than null, for scripts.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// clipCell cuts a table cell to n runes.
func clipCell(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
