// Package cleanup finds Claude Code, MCP-server and subagent processes of
// this user whose session is gone (`warden cleanup`, SPEC §4): left behind
// when a terminal closed or Claude Code crashed, they hold memory and
// sometimes locks until someone kills them.
//
// A process is "Claude family" when it is Claude Code (argv[0] `claude`,
// or node running @anthropic-ai/claude-code) or an MCP server (its command
// line mentions mcp). Walking up from a Claude-family process through its
// Claude-family ancestors reaches the top of its tree; the tree's session
// is gone when that top's parent is init (pid 1) or a service manager that
// adopts orphans (systemd, launchd), or when the session leader it was
// started in no longer exists. Every Claude-family process of such a tree
// is listed, the top and everything under it (a server's workers, a
// tool's command: kind "child"). A tree whose top has a live
// ordinary parent — a shell, tmux, an editor, a test runner — is a live
// session and is never listed; neither is another user's process.
package cleanup

import (
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Proc is one process as listed by the OS.
type Proc struct {
	PID, PPID int
	UID       int
	// SID is the session id (the session leader's pid); 0 when unknown.
	SID     int
	Start   time.Time
	RSS     int64 // bytes
	Comm    string
	Args    []string
	Zombie  bool
	startID uint64 // OS start stamp, to tell a reused pid apart
}

// Kinds of Claude-family processes.
const (
	KindClaude   = "claude"
	KindSubagent = "subagent" // Claude Code started by Claude Code
	KindMCP      = "mcp"
	KindChild    = "child"
)

// Orphan is a listed process.
type Orphan struct {
	Proc
	Kind string
	// Top is the pid of the top of its tree.
	Top int
	// Why says why the session counts as gone.
	Why string
}

// Age is how long the process has run.
func (o Orphan) Age(now time.Time) time.Duration { return now.Sub(o.Start) }

// Command is the command line as one string.
func (p Proc) Command() string {
	if len(p.Args) == 0 {
		return "[" + p.Comm + "]"
	}
	return strings.Join(p.Args, " ")
}

func isClaude(p *Proc) bool {
	if len(p.Args) == 0 {
		return false
	}
	if filepath.Base(p.Args[0]) == "claude" {
		return true
	}
	for _, a := range p.Args[1:] {
		if strings.Contains(a, "@anthropic-ai/claude-code") || strings.HasSuffix(a, "/claude-code/cli.js") {
			return true
		}
	}
	return false
}

func isMCP(p *Proc) bool {
	for _, a := range p.Args {
		if a := strings.ToLower(a); strings.Contains(a, "mcp") || strings.Contains(a, "modelcontextprotocol") {
			return true
		}
	}
	return false
}

// adopters are process names that adopt orphans (init and service
// managers that are child subreapers).
var adopters = map[string]bool{"init": true, "systemd": true, "launchd": true}

// Find returns the Claude-family processes of uid whose session is gone,
// ordered by tree and pid.
func Find(procs []Proc, uid int) []Orphan {
	byPID := make(map[int]*Proc, len(procs))
	for i := range procs {
		byPID[procs[i].PID] = &procs[i]
	}
	family := func(p *Proc) bool { return p != nil && !p.Zombie && (isClaude(p) || isMCP(p)) }
	var out []Orphan
	for i := range procs {
		p := &procs[i]
		if p.UID != uid || p.Zombie || p.PID == 1 {
			continue
		}
		// Up to the top of the Claude-family part of the ancestry: the
		// highest Claude-family ancestor (or p) below the first ordinary
		// process above it. A process with no Claude-family ancestor is
		// not ours to list.
		var top *Proc
		underClaude := false
		if family(p) {
			top = p
		}
		cur := p
		for hops := 0; hops < 256; hops++ {
			parent := byPID[cur.PPID]
			if parent == nil || parent.PID == 1 {
				break
			}
			if family(parent) {
				if isClaude(parent) {
					underClaude = true
				}
				top = parent
			} else if top != nil {
				break
			}
			cur = parent
		}
		if top == nil {
			continue
		}
		why := gone(top, byPID)
		if why == "" {
			continue
		}
		kind := KindChild // started by one of them (a server's worker, a tool's command)
		switch {
		case isClaude(p) && underClaude:
			kind = KindSubagent
		case isClaude(p):
			kind = KindClaude
		case isMCP(p):
			kind = KindMCP
		}
		out = append(out, Orphan{Proc: *p, Kind: kind, Top: top.PID, Why: why})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Top != out[j].Top {
			return out[i].Top < out[j].Top
		}
		return out[i].PID < out[j].PID
	})
	return out
}

// gone says why the session of a tree topped by top is gone ("" if live).
func gone(top *Proc, byPID map[int]*Proc) string {
	if top.PPID == 1 {
		return "its parent exited (adopted by init)"
	}
	if parent := byPID[top.PPID]; parent != nil && adopters[parent.Comm] {
		return "its parent exited (adopted by " + parent.Comm + ")"
	}
	if top.SID > 0 {
		if leader := byPID[top.SID]; leader == nil || leader.Zombie {
			return "the session it was started in is gone"
		}
	}
	return ""
}

// SettingLast is the store setting holding what the last background
// cleanup (`warden cleanup --record`, run by cleanup.on_start) did.
const SettingLast = "cleanup_last"
