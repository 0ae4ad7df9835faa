package usage

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/warden-dev/warden/internal/usage/corpus"
)

// TestWithHeld: merging every entry equals merging all but some held
// entries at the end of each file and adding them afterwards (the cold
// blocks path), whatever is held.
func TestWithHeld(t *testing.T) {
	dir := t.TempDir()
	if _, err := corpus.Generate(dir, corpus.Config{Seed: 11, Projects: 2, Sessions: 3, Turns: 40}); err != nil {
		t.Fatal(err)
	}
	l, err := loadFiles(context.Background(), Options{Dirs: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	want := merge(l.files, l.results)
	r := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 20; round++ {
		held := make([]int, len(l.results))
		for i, fe := range l.results {
			if fe != nil && len(fe.Entries) > 0 && r.IntN(3) == 0 {
				held[i] = r.IntN(len(fe.Entries) + 1)
			}
		}
		if round == 0 {
			clear(held)
		}
		base, h := mergeHolding(l.files, l.results, held)
		got := withHeld(base, h)
		if !reflect.DeepEqual(got.Models, want.Models) || len(got.Entries) != len(want.Entries) {
			t.Fatalf("round %d: %d entries, %v models; want %d, %v", round, len(got.Entries), got.Models, len(want.Entries), want.Models)
		}
		for i := range got.Entries {
			if got.Entries[i] != want.Entries[i] {
				t.Fatalf("round %d: entry %d = %+v, want %+v", round, i, got.Entries[i], want.Entries[i])
			}
		}
	}
}
