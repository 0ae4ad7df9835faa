package usage

import (
	"bufio"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Usage of the other agent CLIs (Codex, Gemini, Copilot): each keeps its
// own transcripts, in its own format, and names its own models. They are
// read into the same Data as Claude Code's, so the session, daily, weekly
// and monthly reports (and their JSON) are the same code. The token
// columns mean what they mean for Claude Code: input is the input not read
// from a cache, cache read the input that was, output every output token
// (reasoning included), so total is every token the API counted.

// Harnesses whose transcripts LoadHarness reads.
const (
	HarnessCodex   = "codex"
	HarnessGemini  = "gemini"
	HarnessCopilot = "copilot"
)

// HarnessOptions say where a CLI's files are; Getenv nil = os.Getenv.
type HarnessOptions struct {
	Getenv func(string) string
	Home   string // "" = the user's home directory
}

func (o HarnessOptions) env(k string) string {
	if o.Getenv == nil {
		return os.Getenv(k)
	}
	return o.Getenv(k)
}

func (o HarnessOptions) home() string {
	if o.Home != "" {
		return o.Home
	}
	if h := o.env("HOME"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}

// HarnessRoots are the directories LoadHarness reads for h, for messages.
func HarnessRoots(h string, o HarnessOptions) []string {
	switch h {
	case HarnessCodex:
		base := o.env("CODEX_HOME")
		if base == "" {
			base = filepath.Join(o.home(), ".codex")
		}
		// Archived sessions were spent too.
		return []string{filepath.Join(base, "sessions"), filepath.Join(base, "archived_sessions")}
	case HarnessGemini:
		home := o.env("GEMINI_CLI_HOME")
		if home == "" {
			home = o.home()
		}
		return []string{filepath.Join(home, ".gemini", "tmp")}
	case HarnessCopilot:
		base := o.env("COPILOT_HOME")
		if base == "" {
			base = filepath.Join(o.home(), ".copilot")
		}
		return []string{filepath.Join(base, "session-state")}
	}
	return nil
}

// harnessFile says whether path (under a root) is one of h's transcripts.
func harnessFile(h, rel string) bool {
	base := filepath.Base(rel)
	switch h {
	case HarnessCodex:
		return strings.HasPrefix(base, "rollout-") && strings.HasSuffix(base, ".jsonl")
	case HarnessGemini:
		// <project>/chats/session-*.jsonl (older releases wrote one .json).
		return filepath.Base(filepath.Dir(rel)) == "chats" && strings.HasPrefix(base, "session-") &&
			(strings.HasSuffix(base, ".jsonl") || strings.HasSuffix(base, ".json"))
	case HarnessCopilot:
		return base == "events.jsonl"
	}
	return false
}

// DiscoverHarness lists h's transcripts, sorted by path (the order
// duplicates are resolved in: the last wins).
func DiscoverHarness(h string, o HarnessOptions) ([]File, error) {
	var files []File
	for _, root := range HarnessRoots(h, o) {
		err := filepath.WalkDir(root, func(p string, de fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
					return nil
				}
				return err
			}
			if de.IsDir() {
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			if !harnessFile(h, rel) {
				return nil
			}
			fi, err := de.Info()
			if err != nil {
				return nil // gone meanwhile
			}
			files = append(files, File{Path: p, Size: fi.Size(), MtimeNs: fi.ModTime().UnixNano()})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, nil
}

// harnessEntry is one counted response as a transcript reader finds it.
type harnessEntry struct {
	key       string // the response's id ("" = none: never a duplicate)
	ts        time.Time
	model     string
	in, out   int64 // input not from a cache; every output token
	cacheRead int64
	cacheW    int64
}

// harnessSession is what a reader learns about the file's session.
type harnessSession struct {
	project, session string
}

// harnessReader reads one transcript.
type harnessReader func(path string, r io.Reader) (harnessSession, []harnessEntry, error)

// LoadHarness reads every transcript of h into Data: duplicates (the same
// response id, in any file) resolved the last one winning, entries sorted
// by time, each priced (pricesFor).
func LoadHarness(ctx context.Context, h string, o HarnessOptions) (*Data, error) {
	var read harnessReader
	switch h {
	case HarnessCodex:
		read = readCodex
	case HarnessGemini:
		read = readGemini
	case HarnessCopilot:
		read = readCopilot
	default:
		return nil, errors.New("usage: unknown harness " + h + " (known: codex, gemini, copilot)")
	}
	files, err := DiscoverHarness(h, o)
	if err != nil {
		return nil, err
	}
	d := &Data{}
	modelIdx := map[string]int32{}
	byKey := map[string]int{}
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		fh, err := os.Open(f.Path)
		if errors.Is(err, fs.ErrNotExist) {
			continue // deleted since discovered
		}
		if err != nil {
			return nil, err
		}
		s, es, err := read(f.Path, fh)
		fh.Close()
		if err != nil {
			return nil, err
		}
		f.Project, f.Session = s.project, s.session
		fi := int32(len(d.Files))
		d.Files = append(d.Files, f)
		d.Stats.Files++
		d.Stats.FilesParsed++
		d.Stats.BytesRead += f.Size
		for _, he := range es {
			d.Stats.Lines++
			if he.ts.IsZero() { // a line without a time: when the file was last written
				he.ts = time.Unix(0, f.MtimeNs)
			}
			e := Entry{TS: he.ts.UnixMilli(), In: he.in, Out: he.out, CacheRead: he.cacheRead, Cache5m: he.cacheW,
				File: fi, Model: -1}
			if he.model == "" {
				he.model = "unknown" // named in the unpriced warning
			}
			{
				k, ok := modelIdx[he.model]
				if !ok {
					k = int32(len(d.Models))
					d.Models = append(d.Models, he.model)
					modelIdx[he.model] = k
				}
				e.Model = k
			}
			e.cost, e.priced = harnessCost(h, he)
			if he.key != "" {
				if at, ok := byKey[he.key]; ok {
					e.seq = d.Entries[at].seq
					d.Entries[at] = e
					continue
				}
				byKey[he.key] = len(d.Entries)
			}
			e.seq = int32(len(d.Entries))
			d.Entries = append(d.Entries, e)
		}
	}
	sort.SliceStable(d.Entries, func(i, j int) bool { return d.Entries[i].TS < d.Entries[j].TS })
	return d, nil
}

// lines calls fn with every line of r (without its newline), however long.
func lines(r io.Reader, fn func([]byte)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A long line (instructions, a big tool result): gather it.
			buf := append([]byte(nil), line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = br.ReadSlice('\n')
				buf = append(buf, line...)
			}
			line = buf
		}
		if len(line) > 0 {
			fn(trimEOL(line))
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func trimEOL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// parseTS reads an RFC 3339 timestamp; zero when absent or bad.
func parseTS(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

func nonNeg(n int64) int64 { return max(n, 0) }
