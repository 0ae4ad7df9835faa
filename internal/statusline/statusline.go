// Package statusline renders warden's status line segment from the JSON
// Claude Code pipes to the statusLine command (claude-code-hooks.md §4). It
// never fails: whatever goes wrong, it prints what it can and exits 0, with
// nothing on stderr (a non-zero exit blanks the line).
package statusline

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os/exec"
	"strings"
	"time"
)

// Input is the part of the status line payload warden reads.
type Input struct {
	SessionID string `json:"session_id"`
	Model     struct {
		ID          string `json:"id"`
		DisplayName string `json:"display_name"`
	} `json:"model"`
	ContextWindow struct {
		UsedPercentage *float64 `json:"used_percentage"`
	} `json:"context_window"`
}

// Options control one render.
type Options struct {
	// Wrap is a status line command that was there before warden; its output
	// comes first and warden's segment is appended.
	Wrap string
	// WrapTimeout bounds the wrapped command.
	WrapTimeout time.Duration
}

// maxInput bounds the payload read from stdin.
const maxInput = 1 << 20

// Run reads the payload from stdin and writes the line to stdout.
func Run(stdin io.Reader, stdout io.Writer, opts Options) {
	raw, _ := io.ReadAll(io.LimitReader(stdin, maxInput))
	var prefix string
	if opts.Wrap != "" {
		prefix = runWrapped(opts, raw)
	}
	seg := Render(raw)
	switch {
	case prefix != "" && seg != "":
		fmt.Fprintf(stdout, "%s │ %s\n", prefix, seg)
	case prefix != "":
		fmt.Fprintln(stdout, prefix)
	default:
		fmt.Fprintln(stdout, seg)
	}
}

// Render builds warden's segment: model and context use.
func Render(raw []byte) string {
	var in Input
	if err := json.Unmarshal(raw, &in); err != nil {
		return "warden"
	}
	var parts []string
	if m := in.Model.DisplayName; m != "" {
		parts = append(parts, "["+m+"]")
	} else if in.Model.ID != "" {
		parts = append(parts, "["+in.Model.ID+"]")
	}
	if p, ok := ContextPercent(in.ContextWindow.UsedPercentage); ok {
		parts = append(parts, fmt.Sprintf("ctx %d%%", p))
	}
	if len(parts) == 0 {
		return "warden"
	}
	return strings.Join(parts, " ")
}

// ContextPercent normalises used_percentage, which arrives as a whole
// percentage (74) or, from some builds and wrappers, as a fraction (0.74);
// it is null before the first response.
func ContextPercent(v *float64) (int, bool) {
	if v == nil || math.IsNaN(*v) || *v < 0 {
		return 0, false
	}
	p := *v
	if p > 0 && p < 1 {
		p *= 100
	}
	if p > 100 {
		p = 100
	}
	return int(math.Round(p)), true
}

// runWrapped runs the previous status line command with the same payload
// and returns its output (empty on any failure or timeout).
func runWrapped(opts Options, raw []byte) string {
	t := opts.WrapTimeout
	if t <= 0 {
		t = 2 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), t)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", opts.Wrap)
	cmd.Stdin = bytes.NewReader(raw)
	cmd.WaitDelay = 100 * time.Millisecond
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimRight(string(out), "\n")
}
