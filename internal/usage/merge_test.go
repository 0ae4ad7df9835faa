package usage

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
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
		if !reflect.DeepEqual(base.Models, want.Models) || len(got) != len(want.Entries) {
			t.Fatalf("round %d: %d entries, %v models; want %d, %v", round, len(got), base.Models, len(want.Entries), want.Models)
		}
		for i := range got {
			if *got[i] != want.Entries[i] {
				t.Fatalf("round %d: entry %d = %+v, want %+v", round, i, *got[i], want.Entries[i])
			}
		}
	}
}

func TestSortKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 2, 100, 5000} {
		keys := make([]uint64, n)
		for i := range keys {
			keys[i] = r.Uint64()
			if i%7 == 0 {
				keys[i] >>= r.IntN(64)
			}
		}
		want := slices.Clone(keys)
		slices.Sort(want)
		if got := sortKeys(keys); !slices.Equal(got, want) {
			t.Fatalf("n=%d: not sorted", n)
		}
	}
}

// TestHashKey: inputs that differ only in where one id ends, in padding or
// in the kind of second id get different keys, and many ids do not collide.
func TestHashKey(t *testing.T) {
	type in struct {
		msg, second string
		bySession   bool
	}
	cases := []in{{"ab", "c", false}, {"a", "bc", false}, {"abc", "", false}, {"abc\x00", "", false}, {"", "abc", false},
		{"ab", "c", true}, {"msg_0123456", "req_7", false}, {"msg_0123456r", "eq_7", false}, {"12345678", "", false}, {"1234567", "8", false}}
	seen := map[[2]uint64]in{}
	add := func(c in) {
		k0, k1 := hashKey([]byte(c.msg), []byte(c.second), c.bySession)
		if old, ok := seen[[2]uint64{k0, k1}]; ok {
			t.Fatalf("%+v and %+v have one key", old, c)
		}
		seen[[2]uint64{k0, k1}] = c
	}
	for _, c := range cases {
		add(c)
	}
	for i := 0; i < 200000; i++ {
		add(in{msg: fmt.Sprintf("msg_%016x%06d", i*7919, i), second: fmt.Sprintf("req_%d", i%1000), bySession: i%3 == 0})
	}
}

// TestSplitParse: parsing big files on two goroutines gives what one gives,
// on a corpus and on one file holding all of it.
func TestSplitParse(t *testing.T) {
	dir := t.TempDir()
	if _, err := corpus.Generate(dir, corpus.Config{Seed: 5, Projects: 2, Sessions: 4, Turns: 80}); err != nil {
		t.Fatal(err)
	}
	files, err := Discover([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var all []byte
	for _, f := range files {
		b, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	big := filepath.Join(dir, "projects", "-big", "big.jsonl")
	if err := os.MkdirAll(filepath.Dir(big), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(big, all, 0o644); err != nil {
		t.Fatal(err)
	}
	load := func(split int64) *loaded {
		defer func(old int64) { splitFileSize = old }(splitFileSize)
		splitFileSize = split
		l, err := loadFiles(context.Background(), Options{Dirs: []string{dir}})
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	one, two := load(math.MaxInt64), load(0)
	if len(all) < 4*minSplitRegion {
		t.Fatalf("corpus of %d bytes is too small to split", len(all))
	}
	if !reflect.DeepEqual(one.results, two.results) || !reflect.DeepEqual(one.offs, two.offs) || !reflect.DeepEqual(one.tails, two.tails) {
		t.Fatal("split parse differs")
	}
}
