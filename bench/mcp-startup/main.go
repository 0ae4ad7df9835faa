// Command mcp-startup measures how long `warden mcp` takes from being
// started to answering tools/list over stdio — what Claude Code waits for
// when a session starts — against a bare MCP server built with the same
// SDK, in alternating order so load drift hits both alike.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"time"

	"github.com/warden-dev/warden/internal/testenv"
)

func main() {
	warden := flag.String("warden", "", "the warden front binary (warden-helper, warden-core beside it)")
	bare := flag.String("bare", "", "the baseline MCP server binary")
	rounds := flag.Int("rounds", 30, "runs of each")
	flag.Parse()
	// A home of its own: never the developer's config, store or PATH.
	defer testenv.Isolate()()
	dir, _ := os.MkdirTemp("", "mcp-startup-")
	defer os.RemoveAll(dir)
	exec.Command("git", "init", "-q", dir).Run()
	var w, b []time.Duration
	for i := 0; i < *rounds+3; i++ {
		dw, err := once(dir, *warden, "mcp")
		check(err)
		db, err := once(dir, *bare)
		check(err)
		if i >= 3 { // warm-up
			w, b = append(w, dw), append(b, db)
		}
	}
	mw, mb := median(w), median(b)
	fmt.Printf("warden mcp  median %6.1f ms  p90 %6.1f ms\n", ms(mw), ms(p90(w)))
	fmt.Printf("bare SDK    median %6.1f ms  p90 %6.1f ms\n", ms(mb), ms(p90(b)))
	fmt.Printf("warden/bare %.2fx (%d rounds)\n", float64(mw)/float64(mb), *rounds)
}

// once starts the server, sends initialize, initialized and tools/list,
// and returns the time until the tools/list answer; then closes stdin and
// reaps the process.
func once(dir, bin string, args ...string) (time.Duration, error) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir, "WARDEN_HOME="+dir+"/wh", "WARDEN_KEEPER=off")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer cmd.Wait()
	defer in.Close()
	r := bufio.NewReader(out)
	send := func(v map[string]any) { b, _ := json.Marshal(v); in.Write(append(b, '\n')) }
	send(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
		"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "bench", "version": "1"}}})
	if _, err := r.ReadBytes('\n'); err != nil {
		return 0, fmt.Errorf("%s: initialize: %v", bin, err)
	}
	send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	send(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
	line, err := r.ReadBytes('\n')
	if err != nil {
		return 0, fmt.Errorf("%s: tools/list: %v", bin, err)
	}
	d := time.Since(start)
	var resp struct {
		Result *struct{} `json:"result"`
	}
	if json.Unmarshal(line, &resp) != nil || resp.Result == nil {
		return 0, fmt.Errorf("%s: tools/list answered %s", bin, line)
	}
	go io.Copy(io.Discard, r)
	return d, nil
}

func sorted(xs []time.Duration) []time.Duration {
	s := append([]time.Duration(nil), xs...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s
}

func median(xs []time.Duration) time.Duration { return sorted(xs)[len(xs)/2] }
func p90(xs []time.Duration) time.Duration    { return sorted(xs)[len(xs)*9/10] }
func ms(d time.Duration) float64              { return float64(d.Microseconds()) / 1000 }

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcp-startup:", err)
		testenv.Exit(1)
	}
}
