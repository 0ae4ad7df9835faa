package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"time"

	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/usage"
)

type storeCache struct{ st *sqlite.Store }

func (c storeCache) LoadUsageCache(ctx context.Context) (map[string]usage.CachedFile, error) {
	t := time.Now()
	rows, err := c.st.UsageFiles(ctx)
	if err != nil {
		return nil, err
	}
	m := make(map[string]usage.CachedFile, len(rows))
	n := 0
	for _, r := range rows {
		n += len(r.Data)
		m[r.Path] = usage.CachedFile{Path: r.Path, Size: r.Size, MtimeNs: r.MtimeNs, Offset: r.Offset, Data: r.Data}
	}
	fmt.Fprintf(os.Stderr, "cache rows %d, %d KB, %v\n", len(rows), n>>10, time.Since(t))
	return m, nil
}

func (c storeCache) SaveUsageCache(ctx context.Context, upd []usage.CachedFile, remove []string) error {
	rows := make([]sqlite.UsageFile, len(upd))
	for i, u := range upd {
		rows[i] = sqlite.UsageFile{Path: u.Path, Size: u.Size, MtimeNs: u.MtimeNs, Offset: u.Offset, Data: u.Data}
	}
	return c.st.SaveUsageFiles(ctx, rows, remove)
}

// profMain times the phases of one `usage blocks` run (and writes a CPU
// profile with -cpuprofile).
func profMain(args []string) {
	fs := flag.NewFlagSet("prof", flag.ExitOnError)
	dir := fs.String("dir", "", "config dir holding projects/")
	db := fs.String("db", "", "store file for the cache (empty = no cache)")
	prof := fs.String("cpuprofile", "", "write a CPU profile here")
	fs.Parse(args)
	if *prof != "" {
		f, _ := os.Create(*prof)
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	ctx := context.Background()
	t0 := time.Now()
	opt := usage.Options{Dirs: []string{*dir}}
	if *db != "" {
		st, err := sqlite.Open(ctx, *db)
		if err != nil {
			panic(err)
		}
		defer st.Close()
		opt.Cache = storeCache{st}
	}
	fmt.Fprintf(os.Stderr, "open %v\n", time.Since(t0))
	t1 := time.Now()
	files, _ := usage.Discover(opt.Dirs)
	fmt.Fprintf(os.Stderr, "discover %d files %v\n", len(files), time.Since(t1))
	t1 = time.Now()
	d, err := usage.Load(ctx, opt)
	if err != nil {
		panic(err)
	}
	fmt.Fprintf(os.Stderr, "load %v: %+v entries %d\n", time.Since(t1), d.Stats, len(d.Entries))
	t1 = time.Now()
	r := usage.Blocks(d, d.Select(usage.Filter{}), usage.BlockOptions{})
	fmt.Fprintf(os.Stderr, "blocks %d %v; total %v\n", len(r.Blocks), time.Since(t1), time.Since(t0))
}
