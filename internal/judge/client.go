package judge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/detach"
	"github.com/warden-dev/warden/internal/reqenv"
	"github.com/warden-dev/warden/internal/sibling"
)

// BinaryName is the binary that talks to models: `warden-helper judge`.
const BinaryName = sibling.Helper

// BinEnv overrides where warden-helper is for judge calls (tests, unusual
// installs); it is run as `$WARDEN_JUDGE_BIN judge …`.
const BinEnv = "WARDEN_JUDGE_BIN"

// FindBinary locates warden-helper for this process; see FindBinaryFor.
func FindBinary() (string, error) { return FindBinaryFor(reqenv.Process()) }

// FindBinaryFor locates warden-helper for the caller env: its
// $WARDEN_JUDGE_BIN, else next to the running executable, else on its PATH.
func FindBinaryFor(env *reqenv.Env) (string, error) {
	if p := env.Abs(env.Getenv(BinEnv)); p != "" {
		if sibling.IsExecutable(p) {
			return p, nil
		}
		return "", fmt.Errorf("%s=%s is not an executable file", BinEnv, p)
	}
	return sibling.FindOnPath(BinaryName, env.Getenv("PATH"))
}

// ErrMissing marks a response that failed open because warden-helper is
// not installed.
const ErrMissing = BinaryName + " missing"

// graceMS is added to a request's deadline for the subprocess to start,
// record and exit before the hook gives up on it.
const grace = 1500 * time.Millisecond

// Ask runs one judge call through `warden-helper judge` and returns its response.
// It never fails: a missing binary, a crash, garbage on stdout or the
// deadline make a passing response with FailedOpen set and the reason.
func Ask(ctx context.Context, req *Request) Response {
	start := time.Now()
	env := reqenv.From(ctx)
	bin, err := FindBinaryFor(env)
	if err != nil {
		r := FailOpen(req, ErrMissing+": "+err.Error())
		return r
	}
	deadline := time.Duration(req.DeadlineMS)*time.Millisecond + grace
	if req.OnFail != nil {
		deadline += time.Duration(req.OnFail.DeadlineMS) * time.Millisecond
	}
	// Leave the hook a little room to write its output after us.
	if d, ok := ctx.Deadline(); ok {
		if left := time.Until(d) - 500*time.Millisecond; left < deadline {
			deadline = left
		}
	}
	if deadline <= 0 {
		return FailOpen(req, "no time left in the hook's budget for a judge call")
	}
	in, err := json.Marshal(req)
	if err != nil {
		return FailOpen(req, err.Error())
	}
	cctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	cmd := exec.CommandContext(cctx, bin, "judge")
	cmd.Env, cmd.Dir = env.Environ, env.Cwd // the caller's: keys, provider, PATH for claude
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 500 * time.Millisecond
	err = cmd.Run()
	if cctx.Err() != nil {
		return FailOpen(req, fmt.Sprintf("judge %s timed out after %v", req.Judge, time.Since(start).Round(time.Millisecond)))
	}
	var resp Response
	if jerr := json.Unmarshal(bytes.TrimSpace(stdout.Bytes()), &resp); jerr != nil {
		why := fmt.Sprintf("%s gave no response", BinaryName)
		if err != nil {
			why += ": " + err.Error()
		}
		if s := strings.TrimSpace(stderr.String()); s != "" {
			why += ": " + clip(s, 300)
		}
		return FailOpen(req, why)
	}
	return resp
}

// StartLazy starts `warden-helper judge run <id>` detached (own session, stdio on
// /dev/null, reaped when it exits) for a pending verdict already stored
// under id, with the environment of the caller ctx carries, and returns at
// once.
func StartLazy(ctx context.Context, id int64) error {
	env := reqenv.From(ctx)
	bin, err := FindBinaryFor(env)
	if err != nil {
		return err
	}
	return detach.StartFor(env, bin, "judge", "run", fmt.Sprint(id))
}

func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
