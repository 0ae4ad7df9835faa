package doctor

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/judge"
	"github.com/warden-dev/warden/internal/paths"
)

// llmJudges checks the LLM judges: which provider llm.provider resolves to
// (and why judges are off when it is none), and that the hooks can run
// warden-helper — next to the installed warden (paths.Bin()), where `warden
// hook` looks first — by running `warden-helper judge probe` (no network).
func (d *doctor) llmJudges(ctx context.Context) {
	cfg, _ := config.Load(paths.UserConfig(), d.opts.Cwd)
	getenv := func(k string) string {
		if d.opts.Getenv != nil {
			v, _ := d.opts.Getenv(k)
			return v
		}
		return os.Getenv(k)
	}
	provider, why := judge.ResolveProvider(cfg.LLM.Provider, getenv, exec.LookPath)
	// Tempo is on by default only "when a provider exists", so its default
	// does not make a missing provider a problem; a judge the user switched
	// on does.
	wanted := cfg.Validation.Intent || cfg.Validation.ToolApprove || cfg.Validation.ErrorAck ||
		cfg.Validation.PlanDrift || cfg.Validation.StyleDrift || cfg.Validation.ClaudeMD
	if provider == judge.ProviderNone {
		if wanted && cfg.LLM.Provider != judge.ProviderNone {
			d.problem("llm judges", "off: "+why,
				"install Claude Code (claude on PATH) or set ANTHROPIC_API_KEY, or set llm.provider = \"none\" to silence this")
		} else {
			d.info("llm judges", "off: "+why)
		}
		return
	}
	bin := filepath.Join(filepath.Dir(paths.Bin()), judge.BinaryName)
	if !isExecutable(bin) {
		found, err := judge.FindBinary()
		if err != nil {
			d.problem("llm judges", fmt.Sprintf("provider %s (%s), but %s", provider, why, err),
				"run `make install` (builds warden-helper and copies it next to warden), or put warden-helper on PATH")
			return
		}
		bin = found
	}
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(pctx, bin, "judge", "probe").Output()
	var p struct {
		Version  string `json:"version"`
		Provider string `json:"provider"`
	}
	if err != nil || json.Unmarshal(out, &p) != nil {
		d.problem("llm judges", fmt.Sprintf("%s judge probe failed: %v", bin, err), "rebuild and reinstall it: `make install`")
		return
	}
	d.ok("llm judges", fmt.Sprintf("provider %s (%s); models haiku=%s sonnet=%s opus=%s; helper %s",
		provider, why, cfg.LLM.ModelHaiku, cfg.LLM.ModelSonnet, cfg.LLM.ModelOpus, bin))
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}
