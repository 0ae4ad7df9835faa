package judge

import (
	"embed"
	"os"
	"path/filepath"
	"strings"

	"github.com/warden-dev/warden/internal/paths"
)

// Prompt templates are Markdown files embedded in the binary
// (prompts/<name>.md); a file of the same name in $WARDEN_HOME/prompts/
// replaces the built-in one. Placeholders are {{name}}; {{format}} is the
// answer format of the judge's kind. Substitution is plain text (no
// template engine on the hook path), and a value is inserted once, so
// text in the transcript that looks like a placeholder stays as it is.
//
//go:embed prompts/*.md
var builtinPrompts embed.FS

// Template returns the text of the named template and where it came from
// ("builtin" or the override file).
func Template(name string) (string, string) {
	override := filepath.Join(paths.Home(), "prompts", name+".md")
	if b, err := os.ReadFile(override); err == nil && len(strings.TrimSpace(string(b))) > 0 {
		return string(b), override
	}
	b, err := builtinPrompts.ReadFile("prompts/" + name + ".md")
	if err != nil {
		return "", ""
	}
	return string(b), "builtin"
}

// TemplateNames lists the built-in templates.
func TemplateNames() []string {
	es, _ := builtinPrompts.ReadDir("prompts")
	var out []string
	for _, e := range es {
		out = append(out, strings.TrimSuffix(e.Name(), ".md"))
	}
	return out
}

// Render fills the named template with vars and kind's answer format.
func Render(name string, kind Kind, vars map[string]string) string {
	tpl, _ := Template(name)
	return Fill(tpl, kind, vars)
}

// Fill substitutes {{key}} placeholders in tpl in one pass.
func Fill(tpl string, kind Kind, vars map[string]string) string {
	var b strings.Builder
	for {
		i := strings.Index(tpl, "{{")
		if i < 0 {
			b.WriteString(tpl)
			break
		}
		j := strings.Index(tpl[i:], "}}")
		if j < 0 {
			b.WriteString(tpl)
			break
		}
		key := strings.TrimSpace(tpl[i+2 : i+j])
		b.WriteString(tpl[:i])
		switch v, ok := vars[key]; {
		case key == "format":
			b.WriteString(kind.Format())
		case ok:
			if strings.TrimSpace(v) == "" {
				v = "(none)"
			}
			b.WriteString(v)
		default:
			b.WriteString("(none)")
		}
		tpl = tpl[i+j+2:]
	}
	return b.String()
}
