//go:build unix

// Command usage-bench generates synthetic transcript corpora and times
// `warden usage blocks --json` against ccusage and cat. See run.sh.
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: usage-bench gen|run [flags]")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "gen":
		genMain(os.Args[2:])
	case "prof":
		profMain(os.Args[2:])
	case "run":
		runMain(os.Args[2:])
	default:
		fmt.Fprintln(os.Stderr, "usage: usage-bench gen|run [flags]")
		os.Exit(2)
	}
}
