package lifecycle

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestGitCleanDirtyAndNoRepo(t *testing.T) {
	ctx := context.Background()
	dir := gitRepo(t)
	g := Git(ctx, dir)
	if !g.InRepo || g.Branch != "main" || g.Uncommitted != 0 || len(g.Files) != 0 {
		t.Fatalf("clean repo: %+v", g)
	}
	write(t, filepath.Join(dir, "README.md"), "changed\n")
	write(t, filepath.Join(dir, "new dir", "new file.txt"), "x\n")
	run(t, dir, "git", "mv", "README.md", "README2.md")
	write(t, filepath.Join(dir, ".warden", "state", "last-session.json"), "{}")
	g = Git(ctx, dir)
	if g.Uncommitted != 2 {
		t.Errorf("dirty: want 2 changes (rename + untracked), got %+v", g)
	}
	// Untracked directories count once (git's "normal" mode: cheap on big trees).
	want := map[string]bool{"README2.md": true, "new dir/": true}
	for _, f := range g.Files {
		if !want[f] {
			t.Errorf("unexpected path %q in %v", f, g.Files)
		}
	}
	run(t, dir, "git", "checkout", "-q", "-b", "feature/x")
	if g := Git(ctx, dir); g.Branch != "feature/x" {
		t.Errorf("branch: %+v", g)
	}
	if b := BranchFast(filepath.Join(dir, "new dir")); b != "feature/x" {
		t.Errorf("BranchFast from a subdirectory = %q", b)
	}

	none := t.TempDir()
	if g := Git(ctx, none); g.InRepo || g.Branch != "" || g.Uncommitted != 0 {
		t.Errorf("no repo: %+v", g)
	}
	if b := BranchFast(none); b != "" {
		t.Errorf("BranchFast outside a repo = %q", b)
	}
}

func TestGitNoCommitsAndDetached(t *testing.T) {
	dir := gitRepo(t)
	run(t, dir, "git", "checkout", "-q", "--detach")
	g := Git(context.Background(), dir)
	if len(g.Branch) < 7 || g.Branch == "HEAD" {
		t.Errorf("detached HEAD should give the short commit, got %q", g.Branch)
	}
	if b := BranchFast(dir); len(b) != 7 {
		t.Errorf("BranchFast detached = %q", b)
	}
	empty := t.TempDir()
	run(t, empty, "git", "init", "-q", "-b", "trunk")
	write(t, filepath.Join(empty, "a"), "a")
	g = Git(context.Background(), empty)
	if g.Branch != "trunk" || g.Uncommitted != 1 {
		t.Errorf("repo without commits: %+v", g)
	}
}

func TestWriteJSONAtomic(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "missing", "dirs")
	p := filepath.Join(dir, "x.json")
	big := strings.Repeat("x", 200_000)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	bad := make(chan string, 1)
	// A reader never sees a partial file while writers replace it.
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			b, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			var v map[string]string
			if json.Unmarshal(b, &v) != nil {
				select {
				case bad <- string(b[:min(len(b), 80)]):
				default:
				}
			}
		}
	}()
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 20; j++ {
				if err := WriteJSON(p, map[string]string{"w": big[:1000*(i+1)*(j+1)%len(big)]}); err != nil {
					t.Error(err)
				}
			}
		}(i)
	}
	wg.Wait()
	close(stop)
	select {
	case b := <-bad:
		t.Fatalf("reader saw a partial file: %q", b)
	default:
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("temp files left behind: %v", names)
	}
}

func TestBriefing(t *testing.T) {
	proj := t.TempDir()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	all := BriefingOptions{LastSession: true, Learn: true, Handoff: true, PreCompact: true, Source: "startup", Now: now}
	if got := Briefing(proj, all); got != "" {
		t.Fatalf("nothing applies, want no briefing, got %q", got)
	}
	if err := WriteJSON(filepath.Join(StateDir(proj), LastSessionFile), LastSession{
		EndedAt: Timestamp(now.Add(-3 * time.Hour)), Branch: "main", UncommittedChanges: 4, SessionID: "s1"}); err != nil {
		t.Fatal(err)
	}
	SetLearnPending(proj, now)
	hp := filepath.Join(HandoffDir(proj), "handoff-20261122-110000.md")
	write(t, hp, "# Session handoff\n\nGOAL-MARKER\n")
	RegisterResume(proj, hp, "s1", now)

	got := Briefing(proj, all)
	for _, want := range []string{"Last session ended 2026-11-22 09:00 UTC (3h ago)", "on branch main",
		"4 uncommitted changes", "/learn", "GOAL-MARKER", "handoff-20261122-110000.md"} {
		if !strings.Contains(got, want) {
			t.Errorf("briefing lacks %q:\n%s", want, got)
		}
	}
	if LearnPending(proj) {
		t.Error("learn-pending not cleared")
	}
	// Second start: the last session is still reported, the rest was consumed.
	got = Briefing(proj, all)
	if strings.Contains(got, "GOAL-MARKER") || strings.Contains(got, "/learn") {
		t.Errorf("handoff or learn notice injected twice:\n%s", got)
	}
	if !strings.Contains(got, "Last session ended") {
		t.Errorf("last session missing: %q", got)
	}
	// Every piece can be switched off.
	if got := Briefing(proj, BriefingOptions{Source: "startup", Now: now}); got != "" {
		t.Errorf("all pieces off, got %q", got)
	}
}

func TestBriefingAfterCompact(t *testing.T) {
	proj := t.TempDir()
	WriteJSON(filepath.Join(StateDir(proj), LastSessionFile), LastSession{EndedAt: Timestamp(time.Now()), SessionID: "s"})
	WriteJSON(filepath.Join(StateDir(proj), PreCompactFile), PreCompactState{
		CapturedAt: Timestamp(time.Now()), Branch: "dev", UncommittedChanges: 2, RecentFiles: []string{"a.go", "b.go"}, SessionID: "s"})
	got := Briefing(proj, BriefingOptions{LastSession: true, PreCompact: true, Source: "compact", SessionID: "s", Now: time.Now()})
	if !strings.Contains(got, "State before compaction: branch dev, 2 uncommitted; recent files: a.go, b.go") {
		t.Errorf("got %q", got)
	}
	if strings.Contains(got, "Last session ended") {
		t.Errorf("a compaction is not a new session: %q", got)
	}
	if got := Briefing(proj, BriefingOptions{PreCompact: true, Source: "startup"}); got != "" {
		t.Errorf("pre-compact note outside a compaction: %q", got)
	}
}

func TestTakeResumeExactlyOnce(t *testing.T) {
	proj := t.TempDir()
	hp := filepath.Join(HandoffDir(proj), "handoff-20261122-110000.md")
	write(t, hp, "content")
	RegisterResume(proj, hp, "s", time.Now())
	var wg sync.WaitGroup
	var mu sync.Mutex
	got := 0
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, c, ok := TakeResume(proj); ok && c == "content" {
				mu.Lock()
				got++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if got != 1 {
		t.Errorf("resume taken %d times, want 1", got)
	}
}

func TestSessionHandoff(t *testing.T) {
	proj := gitRepo(t)
	write(t, filepath.Join(proj, "main.go"), "package main\n")
	tr := filepath.Join(t.TempDir(), "s.jsonl")
	lines := []string{
		`{"type":"user","message":{"role":"user","content":"Build the parser for config files"}}`,
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Starting."},{"type":"tool_use","id":"1","name":"TodoWrite","input":{"todos":[{"content":"write lexer","status":"completed","activeForm":"x"},{"content":"write parser","status":"in_progress","activeForm":"x"},{"content":"tests","status":"pending","activeForm":"x"}]}}]}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"1","content":"ok"}]}}`,
		`{"type":"user","isMeta":true,"message":{"role":"user","content":"meta stuff"}}`,
		`not json at all`,
		`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"also my token=supersecretvalue123 is here"}]}}`,
		`{"type":"assistant","isSidechain":true,"message":{"role":"assistant","content":[{"type":"text","text":"SIDECHAIN"}]}}`,
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Parser half done; next the tests."}]}}`,
	}
	write(t, tr, strings.Join(lines, "\n")+"\n")
	now := time.Date(2026, 11, 22, 10, 11, 12, 0, time.UTC)
	p, err := WriteSessionHandoff(context.Background(), SessionHandoff{Project: proj, SessionID: "sess-1", Transcript: tr, Percent: 74, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(p) != "handoff-20261122-101112.md" {
		t.Errorf("name %s", p)
	}
	b, _ := os.ReadFile(p)
	s := string(b)
	for _, want := range []string{"> Build the parser for config files", "- Branch: main", "- main.go",
		"- [in_progress] write parser", "- [pending] tests", "> Parser half done; next the tests.", "Context used: 74%"} {
		if !strings.Contains(s, want) {
			t.Errorf("handoff lacks %q:\n%s", want, s)
		}
	}
	for _, bad := range []string{"write lexer", "meta stuff", "SIDECHAIN", "supersecretvalue123", "package main"} {
		if strings.Contains(s, bad) {
			t.Errorf("handoff contains %q:\n%s", bad, s)
		}
	}
	var r Resume
	if err := ReadJSON(filepath.Join(StateDir(proj), PendingResume), &r); err != nil || r.Path != p || r.SessionID != "sess-1" {
		t.Errorf("pending resume %+v %v", r, err)
	}
	// Same second again: a second file, never an overwrite.
	p2, err := WriteSessionHandoff(context.Background(), SessionHandoff{Project: proj, Now: now})
	if err != nil || p2 == p || filepath.Base(p2) != "handoff-20261122-101112-2.md" {
		t.Errorf("second handoff in the same second: %s %v", p2, err)
	}
}

func TestAgentHandoffsAndSignals(t *testing.T) {
	proj := t.TempDir()
	t0 := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	p, err := WriteAgentHandoff(proj, AgentHandoff{
		Signal:  Signal{From: "builder", To: "reviewer", TaskID: "T-12 parser!", Status: StatusPartial, FilesModified: []string{"a.go"}},
		Context: "ctx", Findings: "found", Recommendations: "rec", Time: t0,
	})
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(p) != "agent-t-12-parser-20261122-100000.md" {
		t.Errorf("name %s", filepath.Base(p))
	}
	b, _ := os.ReadFile(p)
	for _, sec := range []string{"## From", "## To", "## Timestamp", "## Context", "## Findings", "## Files Modified",
		"## Open Questions", "## Recommendations", "## Signal", "```json"} {
		if !strings.Contains(string(b), sec) {
			t.Errorf("missing %q", sec)
		}
	}
	sig, err := ReadSignal(p)
	if err != nil || sig.Status != StatusPartial || sig.TaskID != "T-12 parser!" || sig.OpenQuestions == nil {
		t.Fatalf("signal %+v %v", sig, err)
	}
	if _, err := WriteAgentHandoff(proj, AgentHandoff{Signal: Signal{From: "a", To: "b", TaskID: "t", Status: "done"}}); err == nil {
		t.Error("status outside complete|partial|blocked accepted")
	}

	// Invalid ones on disk are reported, never trusted.
	bad := map[string]string{
		"agent-x-20261122-100100.md": "## Signal\n```json\n{\"from\": \"a\", \n```\n",
		"agent-y-20261122-100200.md": "## Signal\n```json\n" + `{"from":"a","to":"b","task_id":"y","status":"done","files_modified":[],"open_questions":[],"blocking":false}` + "\n```\n",
		"agent-z-20261122-100300.md": "no signal here",
		"agent-w-20261122-100400.md": "## Signal\n```json\n" + `{"from":"a","to":"b","task_id":"w","status":"blocked","files_modified":"a.go","open_questions":[],"blocking":true}` + "\n```\n",
	}
	for n, c := range bad {
		write(t, filepath.Join(HandoffDir(proj), n), c)
	}
	entries, err := ListHandoffs(proj)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 5 {
		t.Fatalf("entries %+v", entries)
	}
	if filepath.Base(entries[0].Path) != "agent-w-20261122-100400.md" {
		t.Errorf("not newest first: %s", entries[0].Path)
	}
	invalid := 0
	for _, e := range entries {
		if !e.Valid {
			invalid++
			if e.Signal != nil || e.Problem == "" {
				t.Errorf("invalid entry carries a signal or no problem: %+v", e)
			}
		}
	}
	if invalid != 4 {
		t.Errorf("want 4 invalid, got %d: %+v", invalid, entries)
	}
	if Blocked(entries) != nil {
		t.Error("an invalid blocked Signal must not count as blocked")
	}

	// A valid blocked agent handoff newest → blocked; a newer session handoff clears it.
	bp, _ := WriteAgentHandoff(proj, AgentHandoff{Signal: Signal{From: "b", To: "c", TaskID: "t2", Status: StatusBlocked,
		OpenQuestions: []string{"which db?"}, Blocking: true}, Time: t0.Add(time.Hour)})
	entries, _ = ListHandoffs(proj)
	if b := Blocked(entries); b == nil || b.Path != bp {
		t.Fatalf("blocked not found: %+v", entries[0])
	}
	write(t, filepath.Join(HandoffDir(proj), "handoff-20261122-120000.md"), "session")
	entries, _ = ListHandoffs(proj)
	if Blocked(entries) != nil {
		t.Error("a newer session handoff supersedes the blocked agent handoff")
	}
	// Globs never cross.
	for _, e := range entries {
		base := filepath.Base(e.Path)
		if (e.Kind == KindSession) != strings.HasPrefix(base, "handoff-") {
			t.Errorf("%s listed as %s", base, e.Kind)
		}
		if m, _ := filepath.Match(SessionGlob, base); m && e.Kind == KindAgent {
			t.Errorf("agent handoff %s matches the session glob", base)
		}
		if m, _ := filepath.Match(AgentGlob, base); m && e.Kind == KindSession {
			t.Errorf("session handoff %s matches the agent glob", base)
		}
	}
}

func TestTemplatesAndInit(t *testing.T) {
	proj := t.TempDir()
	ts, err := Templates("/Users/alice/my.app")
	if err != nil {
		t.Fatal(err)
	}
	wantModel := map[string]string{
		".claude/agents/security-reviewer.md":    "opus",
		".claude/agents/code-reviewer.md":        "sonnet",
		".claude/agents/performance-reviewer.md": "sonnet",
		".claude/agents/test-writer.md":          "sonnet",
		".claude/agents/recon.md":                "haiku",
	}
	seen := map[string]bool{}
	for _, tp := range ts {
		seen[tp.Rel] = true
		m := FrontmatterModel(tp.Content)
		if w, ok := wantModel[tp.Rel]; ok && m != w {
			t.Errorf("%s: model %q, want %q", tp.Rel, m, w)
		}
		if m != "" && !contains(ModelAliases, m) {
			t.Errorf("%s: model %q is not an alias", tp.Rel, m)
		}
		if !strings.HasPrefix(string(tp.Content), "---\n") {
			t.Errorf("%s: no frontmatter", tp.Rel)
		}
	}
	for _, r := range []string{".claude/commands/learn.md", ".claude/commands/continue.md", ".claude/commands/build.md"} {
		if !seen[r] {
			t.Errorf("missing template %s", r)
		}
	}
	for r := range wantModel {
		if !seen[r] {
			t.Errorf("missing template %s", r)
		}
	}
	learn := string(find(ts, ".claude/commands/learn.md"))
	for _, w := range []string{"~/.claude/projects/-Users-alice-my-app/memory", "learned-<slug>.md", "**Extracted:**",
		"**Confidence:**", "**Context:**", "## Pattern", "## When to Apply", "## Steps", "## Why This Works", "## Source",
		"under 180 lines", "archive", "secrets", "tokens", "connection strings", "file contents"} {
		if !strings.Contains(learn, w) {
			t.Errorf("learn.md lacks %q", w)
		}
	}
	build := string(find(ts, ".claude/commands/build.md"))
	for _, w := range []string{"warden handoff write", "after each task", "blocked", "stop the loop"} {
		if !strings.Contains(build, w) {
			t.Errorf("build.md lacks %q", w)
		}
	}
	cont := string(find(ts, ".claude/commands/continue.md"))
	for _, w := range []string{"handoff-YYYYMMDD-HHMMSS.md", "agent-<task>-YYYYMMDD-HHMMSS.md", "Signal"} {
		if !strings.Contains(cont, w) {
			t.Errorf("continue.md lacks %q", w)
		}
	}

	// Init: fresh, then a user's own file is kept, then --force.
	userFile := filepath.Join(proj, ".claude", "agents", "recon.md")
	write(t, userFile, "my own recon\n")
	res, err := Init(proj, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Skipped) != 1 || res.Skipped[0] != ".claude/agents/recon.md" || len(res.Written) != 7 || res.Gitignore != "created" {
		t.Errorf("first init: %+v", res)
	}
	if b, _ := os.ReadFile(userFile); string(b) != "my own recon\n" {
		t.Error("user's file overwritten without --force")
	}
	if b, _ := os.ReadFile(filepath.Join(proj, ".gitignore")); string(b) != ".warden/\n" {
		t.Errorf(".gitignore = %q", b)
	}
	res, _ = Init(proj, false)
	if len(res.Unchanged) != 7 || len(res.Written) != 0 || res.Gitignore != "present" {
		t.Errorf("second init: %+v", res)
	}
	res, _ = Init(proj, true)
	if len(res.Overwritten) != 1 {
		t.Errorf("--force: %+v", res)
	}
	if b, _ := os.ReadFile(userFile); FrontmatterModel(b) != "haiku" {
		t.Error("--force did not overwrite")
	}
}

func TestEnsureGitignore(t *testing.T) {
	for _, tc := range []struct{ in, want, status string }{
		{"node_modules/\n", "node_modules/\n\n# warden's per-project state and handoffs\n.warden/\n", "added"},
		{"bin", "bin\n\n# warden's per-project state and handoffs\n.warden/\n", "added"},
		{"x\n/.warden/\n", "x\n/.warden/\n", "present"},
		{".warden\n", ".warden\n", "present"},
		{".wardenx\n", ".wardenx\n\n# warden's per-project state and handoffs\n.warden/\n", "added"},
	} {
		d := t.TempDir()
		write(t, filepath.Join(d, ".gitignore"), tc.in)
		st, err := EnsureGitignore(d)
		b, _ := os.ReadFile(filepath.Join(d, ".gitignore"))
		if err != nil || st != tc.status || string(b) != tc.want {
			t.Errorf("%q: got %s %q %v", tc.in, st, b, err)
		}
	}
}

func TestProjectKey(t *testing.T) {
	if got := ProjectKey("/Users/alice/my.app"); got != "-Users-alice-my-app" {
		t.Error(got)
	}
	if got := ProjectKey("/tmp/é x_y"); got != "-tmp---x-y" {
		t.Error(got)
	}
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func find(ts []Template, rel string) []byte {
	for _, t := range ts {
		if t.Rel == rel {
			return t.Content
		}
	}
	return nil
}
