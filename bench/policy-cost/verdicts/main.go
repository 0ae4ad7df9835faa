// Command verdicts prints, one line per case, what the built-in rules
// decide and every rule that fires (id, mode and reason): the own corpus
// (internal/policy/corpus), every rule's catch and allow cases, and any
// JSONL files named on the command line (one {"cmd": "…"} a line). Run it
// on two builds and diff the outputs: a change meant to keep every verdict
// (an index, a cache, a refactor) must print the same lines.
//
//	go run ./bench/policy-cost/verdicts [FILE.jsonl…] > after.txt
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/warden-dev/warden/internal/policy"
	"github.com/warden-dev/warden/internal/policy/corpus"
)

type item struct{ src, in string }

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "verdicts:", err)
		os.Exit(1)
	}
}

func run(files []string) error {
	var items []item
	cs, err := corpus.Load()
	if err != nil {
		return err
	}
	for _, c := range cs {
		items = append(items, item{c.Source, c.Command})
	}
	for _, p := range policy.Builtin() {
		for _, r := range p.Rules {
			for i, c := range r.Catch {
				items = append(items, item{fmt.Sprintf("%s#catch%d", r.ID, i), c})
			}
			for i, c := range r.Allow {
				items = append(items, item{fmt.Sprintf("%s#allow%d", r.ID, i), c})
			}
		}
	}
	for _, name := range files {
		more, err := readJSONL(name)
		if err != nil {
			return err
		}
		items = append(items, more...)
	}
	e := policy.TestEngine(policy.Builtin(), nil, policy.Options{})
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for _, it := range items {
		call, err := policy.CaseCall(it.in, policy.TestHome, policy.TestProject)
		if err != nil {
			fmt.Fprintf(w, "%s\terror: %v\n", it.src, err)
			continue
		}
		res := e.Evaluate(context.Background(), policy.Normalize(call))
		hits := make([]string, 0, len(res.Hits))
		for _, h := range res.Hits {
			hits = append(hits, strings.Join([]string{h.ID + "=" + string(h.Mode), h.Reason, h.OnceKey, h.Err}, "|"))
		}
		sort.Strings(hits)
		line := strings.ReplaceAll(strings.Join(hits, " ;; "), "\n", `\n`)
		fmt.Fprintf(w, "%s\t%s\t%s\n", it.src, res.Decision, line)
	}
	return nil
}

// readJSONL reads a blind set: one {"cmd": "…"} a line.
func readJSONL(name string) ([]item, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []item
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		var c struct {
			Cmd string `json:"cmd"`
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			return nil, fmt.Errorf("%s:%d: want {\"cmd\": \"…\"}: %v", name, n, err)
		}
		out = append(out, item{fmt.Sprintf("%s:%d", filepath.Base(name), n), c.Cmd})
	}
	return out, sc.Err()
}
