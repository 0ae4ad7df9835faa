package replay_test

import (
	"path/filepath"
	"testing"

	"github.com/warden-dev/warden/internal/replay"
)

// BenchmarkReplay10k replays 10,000 recorded calls — read from a real
// store file, each normalized and judged by two engines (the current
// rules and a candidate) — as `warden replay --policy` does. The target is
// under 5 s per op (go test -bench Replay10k -benchtime 3x ./internal/replay).
func BenchmarkReplay10k(b *testing.B) {
	fx := newFixture(b, 10000)
	home := b.TempDir()
	dir := b.TempDir()
	rulesFile := filepath.Join(dir, "candidate.toml")
	writeFile(b, rulesFile, candidateRules)
	extra, err := replay.LoadRules([]string{rulesFile})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		evs := fx.events(b)
		cur := &replay.Policy{Name: "current", UserConfig: filepath.Join(home, "config.toml"), WardenHome: home}
		cand := &replay.Policy{Name: "candidate", UserConfig: filepath.Join(home, "config.toml"), WardenHome: home, Extra: extra}
		r := replay.Run(evs, replay.Options{Home: fx.home, Baseline: cur, Candidate: cand})
		if r.Replayed != 10000 {
			b.Fatalf("replayed %d", r.Replayed)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/10k-calls")
}
