package callfacts

import (
	"path"
	"strings"

	"github.com/BurntSushi/toml"
)

// cargoBuiltins are cargo's own subcommands (and their short forms):
// any other is an alias from .cargo/config.toml or a cargo-X plugin.
const cargoBuiltins = " build b check c clean doc d new init add remove rm run r test t bench update search publish install uninstall fmt clippy tree vendor yank owner login logout package fetch fix generate-lockfile locate-project metadata pkgid read-manifest report rustc rustdoc verify-project version help config info miri "

// runCargoAlias expands `cargo X` when X is an alias of the project's
// .cargo/config.toml (searched from cwd upwards, then ~/.cargo) and walks
// the cargo command it stands for.
func (n *normalizer) runCargoAlias(c *Cmd, depth int, wrappers []string) {
	sub := c.Sub(0)
	if sub == "" || strings.Contains(cargoBuiltins, " "+sub+" ") {
		return
	}
	var rest []string
	for i, a := range c.Args {
		if a == sub {
			rest = c.Args[i+1:]
			break
		}
	}
	dirs := []string{}
	for d, i := n.cwd, 0; d != "" && i <= maxDefUp; i++ {
		dirs = append(dirs, d)
		if d == "/" || d == n.home {
			break
		}
		d = path.Dir(d)
	}
	if n.home != "" {
		dirs = append(dirs, n.home)
	}
	for _, d := range dirs {
		for _, name := range []string{".cargo/config.toml", ".cargo/config"} {
			t, ok := n.defText(path.Join(d, name))
			if !ok || !t.known {
				continue
			}
			var cfg struct {
				Alias map[string]any `toml:"alias"`
			}
			if _, err := toml.Decode(t.s, &cfg); err != nil {
				continue
			}
			var words []string
			switch v := cfg.Alias[sub].(type) {
			case string:
				words = strings.Fields(v)
			case []any:
				for _, w := range v {
					if s, ok := w.(string); ok {
						words = append(words, s)
					}
				}
			default:
				continue
			}
			if len(words) == 0 || words[0] == sub {
				return
			}
			argv := append(append([]string{"cargo"}, words...), rest...)
			n.runArgv("cargo "+sub, argv, n.cwd, depth, wrappers)
			return
		}
	}
}
