//go:build unix

package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/warden-dev/warden/internal/usage/corpus"
)

func genMain(args []string) {
	fs := flag.NewFlagSet("gen", flag.ExitOnError)
	dir := fs.String("dir", "", "output directory (the corpus goes under DIR/projects)")
	seed := fs.Uint64("seed", 1, "seed")
	mb := fs.Int64("mb", 0, "approximate size in MB (0 = default small corpus)")
	projects := fs.Int("projects", 0, "projects")
	sessions := fs.Int("sessions", 0, "sessions per project (minimum)")
	turns := fs.Int("turns", 0, "average responses per session")
	pad := fs.Int("pad", 0, "average text bytes per content block")
	fs.Parse(args)
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "gen: -dir is required")
		os.Exit(2)
	}
	st, err := corpus.Generate(*dir, corpus.Config{Seed: *seed, Projects: *projects, Sessions: *sessions, Turns: *turns, Pad: *pad, TargetBytes: *mb << 20})
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	fmt.Printf("%d files, %d lines, %.1f MB\n", st.Files, st.Lines, float64(st.Bytes)/(1<<20))
}
