package handlers

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/fileid"
	"github.com/warden-dev/warden/internal/policy"
)

// engines keeps built policy engines for the resident hook server: making
// one (modes resolved for ~500 rules, the command index) and reading the
// rule files cost more than evaluating a call, and they change only when
// the configuration or a rule file does. The key holds everything an
// engine is built from — the policy options, the agent task, and every
// rule file's name, size, modification time and inode — so an edited
// file or config makes a new engine on the next hook. A hook in its own
// process builds one engine either way.
var engines = &engineCache{m: map[string]*builtEngine{}}

// maxEngines bounds the cache: past it, it starts over (a server sees a
// handful of projects and configurations, not hundreds).
const maxEngines = 64

type engineCache struct {
	mu sync.Mutex
	m  map[string]*builtEngine
}

type builtEngine struct {
	eng   *policy.Engine
	probs []policy.Problem
}

// get returns the engine for these inputs, building it on a miss.
func (c *engineCache) get(dirs []string, opts policy.Options, agent []policy.Pack, agentKey string) *builtEngine {
	opts.Getenv = nil // per call (EvaluateFor), never part of the engine
	key := engineKey(dirs, opts, agentKey)
	c.mu.Lock()
	b := c.m[key]
	c.mu.Unlock()
	if b != nil {
		return b
	}
	user, _, probs := policy.LoadUserRules(dirs)
	b = &builtEngine{eng: policy.New(append(policy.Builtin(), agent...), user, opts), probs: probs}
	c.mu.Lock()
	if len(c.m) >= maxEngines {
		clear(c.m)
	}
	c.m[key] = b
	c.mu.Unlock()
	return b
}

// engineKey names what an engine is built from.
func engineKey(dirs []string, o policy.Options, agentKey string) string {
	var b strings.Builder
	field := func(parts ...string) {
		for _, p := range parts {
			b.WriteString(p)
			b.WriteByte(0)
		}
		b.WriteByte(1)
	}
	field(o.Disabled...)
	field(o.Modes...)
	field(o.Raise...)
	field(o.ProtectedBranches...)
	field(strconv.Itoa(o.MaxLinesWarn), strconv.Itoa(o.MaxLinesDeny), o.WardenHome, agentKey)
	for _, d := range dirs {
		files, _ := filepath.Glob(filepath.Join(d, "*.toml")) // as LoadUserRules lists them
		sort.Strings(files)
		for _, f := range files {
			fi, err := os.Stat(f)
			if err != nil {
				field(f, "?")
				continue
			}
			field(f, strconv.FormatInt(fi.Size(), 10), strconv.FormatInt(fi.ModTime().UnixNano(), 10), fileid.Of(fi))
		}
	}
	return b.String()
}
