// Package corpus generates synthetic Claude Code transcript trees for the
// usage tests and benches, deterministically from a seed: projects,
// sessions, subagent files, several models (one unknown to the price table,
// fast mode, <synthetic> API errors), streamed duplicates of one response,
// sidechain copies, resumed sessions that copy earlier lines, summaries and
// other metadata lines, malformed and truncated lines, gaps longer than 5
// hours, spread over several days and months.
package corpus

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// Config says what to generate.
type Config struct {
	Seed     uint64
	Projects int       // default 3
	Sessions int       // per project, default 4
	Turns    int       // assistant responses per session (average), default 40
	Start    time.Time // first activity; default 2026-01-20T08:00Z
	Days     int       // spread of session starts, default 45 (crosses a month)
	Pad      int       // average bytes of text per content block, default 300
	// TargetBytes, when > 0, keeps adding sessions until the corpus is
	// about this large (Sessions becomes a minimum).
	TargetBytes int64
}

// Stats describes what was written.
type Stats struct {
	Files int
	Bytes int64
	Lines int
}

var models = []string{
	"claude-sonnet-4-5-20250929",
	"claude-opus-4-5-20251101",
	"claude-haiku-4-5-20251001",
	"claude-sonnet-4-6",
	"claude-opus-4-6",
	"claude-test-unknown-1", // not in the price table
}

type gen struct {
	cfg   Config
	r     *rand.Rand
	st    Stats
	msgN  int
	saved [][]byte // earlier lines, copied into resumed sessions
}

// Generate writes the corpus under dir/projects.
func Generate(dir string, cfg Config) (Stats, error) {
	if cfg.Projects <= 0 {
		cfg.Projects = 3
	}
	if cfg.Sessions <= 0 {
		cfg.Sessions = 4
	}
	if cfg.Turns <= 0 {
		cfg.Turns = 40
	}
	if cfg.Start.IsZero() {
		cfg.Start = time.Date(2026, 1, 20, 8, 0, 0, 0, time.UTC)
	}
	if cfg.Days <= 0 {
		cfg.Days = 45
	}
	if cfg.Pad <= 0 {
		cfg.Pad = 300
	}
	g := &gen{cfg: cfg, r: rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15))}
	for n := 0; ; n++ {
		p := n % cfg.Projects
		s := n / cfg.Projects
		if s >= cfg.Sessions && (cfg.TargetBytes <= 0 || g.st.Bytes >= cfg.TargetBytes) {
			break
		}
		proj := fmt.Sprintf("-home-dev-proj%d-app", p)
		if err := g.session(filepath.Join(dir, "projects", proj), proj, p, s); err != nil {
			return g.st, err
		}
	}
	return g.st, nil
}

const letters = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789 .,;:-_/\\\"{}[]\n\t"

func (g *gen) text(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[g.r.IntN(len(letters))]
	}
	return b
}

func (g *gen) id(prefix string) string {
	g.msgN++
	return fmt.Sprintf("%s_%016x%06d", prefix, g.r.Uint64(), g.msgN)
}

func (g *gen) uuid() string {
	a, b := g.r.Uint64(), g.r.Uint64()
	return fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", uint32(a), uint16(a>>32), uint16(a>>48), uint16(b), b>>16)
}

type file struct {
	f *os.File
	w *bufio.Writer
	g *gen
}

func (g *gen) create(path string) (*file, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	g.st.Files++
	return &file{f: f, w: bufio.NewWriterSize(f, 256<<10), g: g}, nil
}

func (f *file) line(b []byte) {
	f.w.Write(b)
	f.w.WriteByte('\n')
	f.g.st.Bytes += int64(len(b) + 1)
	f.g.st.Lines++
}

func (f *file) raw(b []byte) { // no newline (a file cut mid-write)
	f.w.Write(b)
	f.g.st.Bytes += int64(len(b))
}

func (f *file) close() error {
	if err := f.w.Flush(); err != nil {
		f.f.Close()
		return err
	}
	return f.f.Close()
}

func ts(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

func jstr(b []byte, s string) []byte { return strconv.AppendQuote(b, s) } // ASCII-only input

type usage struct {
	in, out, ccTotal, c5, c1, cr int64
	breakdown                    bool
	speed                        string
}

func (u usage) append(b []byte) []byte {
	b = append(b, `"usage":{"input_tokens":`...)
	b = strconv.AppendInt(b, u.in, 10)
	b = append(b, `,"cache_creation_input_tokens":`...)
	b = strconv.AppendInt(b, u.ccTotal, 10)
	b = append(b, `,"cache_read_input_tokens":`...)
	b = strconv.AppendInt(b, u.cr, 10)
	if u.breakdown {
		b = append(b, `,"cache_creation":{"ephemeral_5m_input_tokens":`...)
		b = strconv.AppendInt(b, u.c5, 10)
		b = append(b, `,"ephemeral_1h_input_tokens":`...)
		b = strconv.AppendInt(b, u.c1, 10)
		b = append(b, '}')
	}
	b = append(b, `,"output_tokens":`...)
	b = strconv.AppendInt(b, u.out, 10)
	b = append(b, `,"service_tier":"standard"`...)
	if u.speed != "" {
		b = append(b, `,"speed":`...)
		b = jstr(b, u.speed)
	}
	return append(b, '}')
}

type msgCtx struct {
	session, cwd, version, model, parent string
	sidechain                            bool
	agentID                              string
}

func (g *gen) userLine(c *msgCtx, t time.Time, content []byte) []byte {
	u := g.uuid()
	b := make([]byte, 0, 256+len(content)*2)
	b = append(b, `{"parentUuid":`...)
	if c.parent == "" {
		b = append(b, "null"...)
	} else {
		b = jstr(b, c.parent)
	}
	b = append(b, `,"isSidechain":`...)
	b = strconv.AppendBool(b, c.sidechain)
	b = append(b, `,"userType":"external","cwd":`...)
	b = jstr(b, c.cwd)
	b = append(b, `,"sessionId":`...)
	b = jstr(b, c.session)
	b = append(b, `,"version":`...)
	b = jstr(b, c.version)
	b = append(b, `,"gitBranch":"main","type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_x","content":`...)
	b = jstr(b, string(content))
	b = append(b, `}]},"uuid":`...)
	b = jstr(b, u)
	b = append(b, `,"timestamp":`...)
	b = jstr(b, ts(t))
	b = append(b, '}')
	c.parent = u
	return b
}

func (g *gen) assistantLine(c *msgCtx, t time.Time, msgID, reqID string, u usage, block []byte, apiError string) []byte {
	uid := g.uuid()
	b := make([]byte, 0, 512+len(block)*2)
	b = append(b, `{"parentUuid":`...)
	b = jstr(b, c.parent)
	b = append(b, `,"isSidechain":`...)
	b = strconv.AppendBool(b, c.sidechain)
	if c.agentID != "" {
		b = append(b, `,"agentId":`...)
		b = jstr(b, c.agentID)
	}
	b = append(b, `,"userType":"external","cwd":`...)
	b = jstr(b, c.cwd)
	b = append(b, `,"sessionId":`...)
	b = jstr(b, c.session)
	b = append(b, `,"version":`...)
	b = jstr(b, c.version)
	b = append(b, `,"gitBranch":"main","message":{"id":`...)
	b = jstr(b, msgID)
	b = append(b, `,"type":"message","role":"assistant","model":`...)
	b = jstr(b, c.model)
	if apiError != "" {
		b = append(b, `,"content":[{"type":"text","text":`...)
		b = jstr(b, apiError)
		b = append(b, `}],"stop_reason":"stop_sequence","stop_sequence":"",`...)
	} else {
		b = append(b, `,"content":[{"type":"text","text":`...)
		b = jstr(b, string(block))
		b = append(b, `}],"stop_reason":null,"stop_sequence":null,`...)
	}
	b = u.append(b)
	b = append(b, '}')
	if reqID != "" {
		b = append(b, `,"requestId":`...)
		b = jstr(b, reqID)
	}
	if apiError != "" {
		b = append(b, `,"isApiErrorMessage":true`...)
	}
	b = append(b, `,"type":"assistant","uuid":`...)
	b = jstr(b, uid)
	b = append(b, `,"timestamp":`...)
	b = jstr(b, ts(t))
	b = append(b, '}')
	c.parent = uid
	return b
}

func (g *gen) usageFor(model string) usage {
	r := g.r
	u := usage{in: int64(r.IntN(40) + 1), out: int64(r.IntN(3000) + 5), cr: int64(r.IntN(150_000))}
	cc := int64(r.IntN(20_000))
	switch r.IntN(4) {
	case 0: // plain cache_creation_input_tokens, no breakdown
		u.ccTotal, u.c5 = cc, cc
	case 1: // 1-hour writes
		u.breakdown, u.c1, u.ccTotal = true, cc, cc
	default:
		u.breakdown = true
		u.c5 = cc / 2
		u.c1 = cc - u.c5
		u.ccTotal = cc
	}
	if r.IntN(60) == 0 { // above the 200k tier
		u.in = int64(200_000 + r.IntN(100_000))
		u.cr = int64(150_000 + r.IntN(200_000))
		u.out = int64(r.IntN(250_000))
	}
	if model == "claude-opus-4-6" && r.IntN(4) == 0 {
		u.speed = "fast"
	} else if r.IntN(3) == 0 {
		u.speed = "standard"
	}
	return u
}

func (g *gen) session(dir, proj string, p, s int) error {
	r := g.r
	sid := g.uuid()
	main, err := g.create(filepath.Join(dir, sid+".jsonl"))
	if err != nil {
		return err
	}
	start := g.cfg.Start.Add(time.Duration(r.Int64N(int64(g.cfg.Days) * int64(24*time.Hour)))).Truncate(time.Millisecond)
	t := start
	c := &msgCtx{session: sid, cwd: fmt.Sprintf("/home/dev/proj%d/app", p), version: "2.1.330", model: models[r.IntN(len(models))]}
	main.line([]byte(`{"type":"summary","summary":"Generated session","leafUuid":"` + g.uuid() + `"}`))
	main.line([]byte(`{"type":"file-history-snapshot","messageId":"` + g.uuid() + `","snapshot":{"trackedFileBackups":{},"timestamp":"` + ts(t) + `"},"isSnapshotUpdate":false}`))

	// A resumed session starts with copies of earlier lines (same ids).
	if len(g.saved) > 0 && r.IntN(3) == 0 {
		for i := 0; i < 3 && i < len(g.saved); i++ {
			main.line(g.saved[r.IntN(len(g.saved))])
		}
	}
	var sub *file
	subCtx := &msgCtx{}
	turns := g.cfg.Turns/2 + r.IntN(g.cfg.Turns+1)
	for k := 0; k < turns; k++ {
		// Time: usually seconds to minutes; sometimes a pause over 5 hours.
		switch {
		case r.IntN(30) == 0:
			t = t.Add(time.Duration(5*3600+r.IntN(20*3600)) * time.Second)
		case r.IntN(8) == 0:
			t = t.Add(time.Duration(r.IntN(3600)) * time.Second)
		default:
			t = t.Add(time.Duration(r.IntN(120_000)) * time.Millisecond)
		}
		if r.IntN(10) == 0 {
			c.model = models[r.IntN(len(models))]
		}
		main.line(g.userLine(c, t, g.text(r.IntN(2*g.cfg.Pad)+1)))
		t = t.Add(time.Duration(r.IntN(30_000)+500) * time.Millisecond)
		msgID, reqID := g.id("msg"), g.id("req")
		if r.IntN(25) == 0 {
			reqID = "" // a third-party endpoint without requestId
		}
		u := g.usageFor(c.model)
		// Streamed: several lines per response; earlier snapshots may carry
		// fewer output tokens than the last.
		blocks := 1 + r.IntN(3)
		var last []byte
		for bi := 0; bi < blocks; bi++ {
			uu := u
			if bi < blocks-1 && r.IntN(2) == 0 {
				uu.out = u.out / int64(2+bi)
			}
			last = g.assistantLine(c, t.Add(time.Duration(bi*150)*time.Millisecond), msgID, reqID, uu, g.text(r.IntN(2*g.cfg.Pad)+1), "")
			main.line(last)
		}
		if r.IntN(10) == 0 {
			g.saved = append(g.saved, last)
			if len(g.saved) > 50 {
				g.saved = g.saved[1:]
			}
		}
		// A sidechain copy of the same response (same ids) in a subagent
		// file, sometimes with more tokens: the main copy must win.
		if r.IntN(6) == 0 {
			if sub == nil {
				aid := fmt.Sprintf("a%016x", r.Uint64())
				if sub, err = g.create(filepath.Join(dir, sid, "subagents", "agent-"+aid+".jsonl")); err != nil {
					return err
				}
				*subCtx = msgCtx{session: sid, cwd: c.cwd, version: c.version, model: "claude-haiku-4-5-20251001", sidechain: true, agentID: aid, parent: c.parent}
			}
			uu := u
			uu.out += int64(r.IntN(100))
			sub.line(g.assistantLine(&msgCtx{session: sid, cwd: c.cwd, version: c.version, model: c.model, sidechain: true, parent: c.parent},
				t.Add(time.Second), msgID, reqID, uu, g.text(20), ""))
		}
		// Subagent work of its own.
		if sub != nil && r.IntN(3) == 0 {
			st := t.Add(time.Duration(r.IntN(20_000)) * time.Millisecond)
			sub.line(g.userLine(subCtx, st, g.text(r.IntN(g.cfg.Pad)+1)))
			for bi, n := 0, 1+r.IntN(2); bi < n; bi++ {
				sub.line(g.assistantLine(subCtx, st.Add(time.Second), g.id("msg"), g.id("req"), g.usageFor(subCtx.model), g.text(r.IntN(g.cfg.Pad)+1), ""))
			}
		}
		// Noise.
		switch r.IntN(40) {
		case 0:
			main.line([]byte(`{"type":"progress","data":{"message":{"type":"assistant","message":{"id":"` + g.id("msg") + `","usage":{"input_tokens":5,"output_tokens":5}}}},"timestamp":"` + ts(t) + `"}`))
		case 1: // malformed
			main.line([]byte(`{"type":"assistant","message":{"usage":{"input_tokens":12,` + string(g.text(30))))
		case 2: // truncated line with the usage marker
			full := g.assistantLine(c, t, g.id("msg"), g.id("req"), g.usageFor(c.model), g.text(50), "")
			main.line(full[:len(full)*2/3])
		case 3: // a null that ccusage drops the line for
			l := g.assistantLine(c, t, g.id("msg"), g.id("req"), g.usageFor(c.model), g.text(10), "")
			l = append(l[:len(l)-1], `,"toolUseResult":{"cwd":null}}`...)
			main.line(l)
		case 4: // bad timestamp
			l := g.assistantLine(c, t, g.id("msg"), g.id("req"), g.usageFor(c.model), g.text(10), "")
			main.line(bytes.Replace(l, []byte(ts(t)), []byte(t.Format("2006-01-02 15:04:05")), 1))
		case 5: // synthetic API error (counted, no model, cost 0)
			cc := *c
			cc.model = "<synthetic>"
			msg := "API Error: 500 overloaded"
			if r.IntN(2) == 0 {
				msg = "Claude AI usage limit reached|" + strconv.FormatInt(t.Add(3*time.Hour).Unix(), 10)
			}
			main.line(g.assistantLine(&cc, t, g.id("msg"), "", usage{}, nil, msg))
			c.parent = cc.parent
		case 6: // a float token count: not counted
			main.line([]byte(`{"type":"assistant","sessionId":"` + sid + `","requestId":"` + g.id("req") + `","timestamp":"` + ts(t) + `","version":"2.1.330","message":{"id":"` + g.id("msg") + `","model":"` + c.model + `","usage":{"input_tokens":7.0,"output_tokens":1}}}`))
		case 7: // a bad version
			cc := *c
			cc.version = "dev"
			main.line(g.assistantLine(&cc, t, g.id("msg"), g.id("req"), g.usageFor(c.model), g.text(10), ""))
			c.parent = cc.parent
		}
	}
	// Some files end in the middle of a line.
	if r.IntN(5) == 0 {
		full := g.assistantLine(c, t.Add(time.Minute), g.id("msg"), g.id("req"), g.usageFor(c.model), g.text(40), "")
		main.raw(full[:len(full)/2])
	}
	if sub != nil {
		if err := sub.close(); err != nil {
			return err
		}
	}
	return main.close()
}
