//go:build unix

package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"runtime/trace"
	"time"

	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/usage"
)

// profMain times the phases of one `usage blocks` run (and writes a CPU
// profile with -cpuprofile): with -db, the store path of `warden usage
// blocks` (snapshot, incremental state or a full load), else a load
// without a cache.
func profMain(args []string) {
	fs := flag.NewFlagSet("prof", flag.ExitOnError)
	dir := fs.String("dir", "", "config dir holding projects/")
	db := fs.String("db", "", "store file for the cache (empty = no cache)")
	prof := fs.String("cpuprofile", "", "write a CPU profile here")
	tr := fs.String("trace", "", "write an execution trace here")
	fs.Parse(args)
	if *tr != "" {
		f, err := os.Create(*tr)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		trace.Start(f)
		defer trace.Stop()
	}
	if *prof != "" {
		f, err := os.Create(*prof)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	ctx := context.Background()
	t0 := time.Now()
	opt := usage.Options{Dirs: []string{*dir}}
	var st *sqlite.Store
	if *db != "" {
		var err error
		if st, err = sqlite.Open(ctx, *db); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer st.Close()
	}
	fmt.Fprintf(os.Stderr, "open %v\n", time.Since(t0))
	t1 := time.Now()
	var files []usage.File
	var err error
	if st != nil {
		files, err = usage.DiscoverStore(ctx, st, opt.Dirs)
	} else {
		files, err = usage.Discover(opt.Dirs)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	opt.Files = files
	fmt.Fprintf(os.Stderr, "discover %d files %v\n", len(files), time.Since(t1))
	t1 = time.Now()
	if st != nil {
		aggs, stats, err := usage.LoadBlocks(ctx, st, opt, 0)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "load blocks %v: %+v, %d blocks; total %v\n", time.Since(t1), stats, len(aggs), time.Since(t0))
		return
	}
	d, err := usage.Load(ctx, opt)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "load %v: %+v entries %d\n", time.Since(t1), d.Stats, len(d.Entries))
	t1 = time.Now()
	r := usage.Blocks(d, d.Select(usage.Filter{}), usage.BlockOptions{})
	fmt.Fprintf(os.Stderr, "blocks %d %v; total %v\n", len(r.Blocks), time.Since(t1), time.Since(t0))
}
