package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/warden-dev/warden/internal/store/keeper"
)

// ExportPhase is the OpenTelemetry export's cost to a hook: two stores side
// by side, each with its keeper answering, one with the export off and one
// with logs, metrics and traces going to a local OTLP receiver (the
// keeper's warden-helper otel child reads the store and sends; the hook
// only keeps its handlers' timings in the record). Each round runs one
// hook in each, the order alternating, so load from elsewhere lands on
// both alike.
type ExportPhase struct {
	Rounds int     `json:"rounds"`
	Off    Summary `json:"off"`
	On     Summary `json:"on"`
	// OffWork and OnWork are the in-process times (the rows' latency_us).
	OffWork Summary `json:"off_in_process"`
	OnWork  Summary `json:"on_in_process"`
	// RatioP50 is on / off at the median of the process times,
	// RatioWorkP50 the same of the in-process times.
	RatioP50     float64 `json:"ratio_on_off_p50"`
	RatioWorkP50 float64 `json:"ratio_on_off_in_process_p50"`
	// Received counts the OTLP requests the receiver took, by path: the
	// export was really on.
	Received map[string]int `json:"received"`
}

// otlpSink is an OTLP/HTTP endpoint that takes every export and answers
// with the empty response (a valid protobuf message).
type otlpSink struct {
	mu   sync.Mutex
	hits map[string]int
}

func (s *otlpSink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	s.mu.Lock()
	s.hits[r.URL.Path]++
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.WriteHeader(http.StatusOK)
}

func (s *otlpSink) received() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]int{}
	for k, v := range s.hits {
		out[k] = v
	}
	return out
}

// exportPhase measures o.exportRounds hooks with the export off and on.
func exportPhase(tmp string, o options) (*ExportPhase, error) {
	sink := &otlpSink{hits: map[string]int{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: sink, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	var benches [2]*bench
	for i, name := range []string{"export-off", "export-on"} {
		dir := filepath.Join(tmp, name)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, err
		}
		b, err := setup(dir, o.noUserConfig)
		if err != nil {
			return nil, err
		}
		defer b.stdin.Close()
		defer b.stdout.Close()
		defer b.stderr.Close()
		if i == 1 {
			cfg := filepath.Join(filepath.Dir(b.db), "config.toml")
			f, err := os.OpenFile(cfg, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(f, "\n[otel]\nendpoint = \"http://%s\"\ntraces = true\n", ln.Addr())
			f.Close()
			then := time.Now().Add(-time.Hour) // as setup leaves it: not just written
			os.Chtimes(cfg, then, then)
			// Metrics every second, so they flow while the hooks run.
			b.env = append(b.env, "OTEL_METRIC_EXPORT_INTERVAL=1000")
		}
		benches[i] = b
	}
	v := variant{name: "warden hook", path: o.warden, args: []string{"hook", "--harness", "claude"}, warden: true, event: preToolUse}
	for _, b := range benches {
		lock := filepath.Join(filepath.Dir(b.db), "locks", "keeper.lock")
		defer keeper.Stop(lock, 10*time.Second)
		if _, err := b.spawn(v); err != nil {
			return nil, errors.Join(errors.New("export phase: the first hook"), err, b.stderrEmpty())
		}
		if !keeperUp(lock) {
			return nil, errors.New("export phase: no store keeper came up after a hook")
		}
		if err := b.paceFigures(nil); err != nil {
			return nil, err
		}
	}
	// Let the export's first pass mark where it starts.
	time.Sleep(1500 * time.Millisecond)
	var samples [2][]float64
	var first [2]int
	for r := 0; r < o.warmup+o.exportRounds; r++ {
		for i := range benches {
			if r == o.warmup && i == 0 {
				first = [2]int{benches[0].seq + 1, benches[1].seq + 1}
			}
			k := (r + i) % 2
			d, err := benches[k].spawn(v)
			if err != nil {
				return nil, errors.Join(fmt.Errorf("export phase: %w", err), benches[k].stderrEmpty())
			}
			if r >= o.warmup {
				samples[k] = append(samples[k], float64(d.Microseconds())/1000)
			}
		}
	}
	var work [2][]float64
	for i, b := range benches {
		if err := b.stderrEmpty(); err != nil {
			return nil, err
		}
		if work[i], err = b.hookWork(nil, preToolUse, first[i]); err != nil {
			return nil, err
		}
	}
	// The hooks' logs and traces reach the receiver within a pass or two.
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		got := sink.received()
		if got["/v1/logs"] > 0 && got["/v1/traces"] > 0 && got["/v1/metrics"] > 0 {
			break
		}
	}
	p := &ExportPhase{Rounds: o.exportRounds, Off: summarize("export off", samples[0]), On: summarize("export on", samples[1]),
		OffWork: summarize("export off in-process", work[0]), OnWork: summarize("export on in-process", work[1]),
		Received: sink.received()}
	p.RatioP50 = p.On.Median / p.Off.Median
	p.RatioWorkP50 = p.OnWork.Median / p.OffWork.Median
	if p.Received["/v1/logs"] == 0 || p.Received["/v1/traces"] == 0 {
		return nil, fmt.Errorf("export phase: the receiver got %v; the export did not run", p.Received)
	}
	return p, nil
}

func printExport(w io.Writer, p *ExportPhase) {
	if p == nil {
		return
	}
	fmt.Fprintf(w, "\nOpenTelemetry export (logs, metrics, traces to a local OTLP receiver) off and on: %d rounds, two stores each with its keeper, order alternating\n", p.Rounds)
	fmt.Fprintf(w, "  %-26s %9s %9s %9s\n", "ms", "median", "p90", "p99")
	for _, s := range []Summary{p.Off, p.On, p.OffWork, p.OnWork} {
		fmt.Fprintf(w, "  %-26s %9.2f %9.2f %9.2f\n", s.Name, s.Median, s.P90, s.P99)
	}
	fmt.Fprintf(w, "  export on / off  %.2f×   (process medians), %.2f× (in-process medians)\n", p.RatioP50, p.RatioWorkP50)
	fmt.Fprintf(w, "  receiver took %d log, %d metric and %d trace requests\n", p.Received["/v1/logs"], p.Received["/v1/metrics"], p.Received["/v1/traces"])
}
