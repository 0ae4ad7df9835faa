// The Node parent of bench/hook-latency (nodeparent.go): it spawns hook
// processes the way Claude Code does (child_process.spawn, detached, stdin,
// stdout and stderr piped, the payload written to stdin and closed) and
// times each from the burst's start to its 'close' (exited and every pipe
// closed, the keeper's copies included).
//
// Protocol, one JSON object per line each way:
//   in:  {"runs": [{"path": "...", "args": ["..."], "stdin": "...", "env": ["K=V", ...], "cwd": "..."}, ...]}
//        (env and cwd, when given, replace the parent's for that run)
//   out: {"ms": [..], "codes": [..], "stderr": "..."}
// The runs of one line start together (a burst: parallel tool calls).
'use strict';
const { spawn } = require('child_process');
const readline = require('readline');

function burst(runs) {
  return new Promise((resolve) => {
    const ms = new Array(runs.length);
    const codes = new Array(runs.length);
    let stderr = '';
    let left = runs.length;
    const start = process.hrtime.bigint();
    runs.forEach((r, i) => {
      const opts = { stdio: ['pipe', 'pipe', 'pipe'], detached: true };
      if (r.env) opts.env = Object.fromEntries(r.env.map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
      if (r.cwd) opts.cwd = r.cwd;
      const child = spawn(r.path, r.args || [], opts);
      child.stdout.on('data', () => {});
      child.stderr.on('data', (d) => { stderr += d; });
      child.stdin.on('error', () => {}); // a child that exits before reading
      child.on('error', (e) => { stderr += r.path + ': ' + e.message + '\n'; });
      child.on('close', (code) => {
        ms[i] = Number(process.hrtime.bigint() - start) / 1e6;
        codes[i] = code;
        if (--left === 0) resolve({ ms, codes, stderr });
      });
      child.stdin.end(r.stdin || '');
    });
  });
}

const rl = readline.createInterface({ input: process.stdin });
let queue = Promise.resolve();
rl.on('line', (line) => {
  const req = JSON.parse(line);
  queue = queue.then(() => burst(req.runs)).then((res) => {
    process.stdout.write(JSON.stringify(res) + '\n');
  });
});
