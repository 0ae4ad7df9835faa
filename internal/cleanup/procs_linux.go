//go:build linux

package cleanup

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// clockTicks is USER_HZ, the unit of /proc start times: 100 on every
// Linux architecture Go supports.
const clockTicks = 100

// List reads every process from /proc.
func List() ([]Proc, error) {
	boot, err := bootTime()
	if err != nil {
		return nil, err
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil, fmt.Errorf("list processes: %w", err)
	}
	page := int64(os.Getpagesize())
	var out []Proc
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		p, ok := readProc(pid, boot, page)
		if ok {
			out = append(out, p)
		}
	}
	return out, nil
}

// readProc reads one process; false when it is gone or unreadable.
func readProc(pid int, boot time.Time, page int64) (Proc, bool) {
	dir := filepath.Join("/proc", strconv.Itoa(pid))
	fi, err := os.Stat(dir)
	if err != nil {
		return Proc{}, false
	}
	p := Proc{PID: pid, UID: -1}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		p.UID = int(st.Uid)
	}
	stat, err := os.ReadFile(filepath.Join(dir, "stat"))
	if err != nil {
		return Proc{}, false
	}
	// comm is in parentheses and may itself contain them: cut at the last.
	open, end := bytes.IndexByte(stat, '('), bytes.LastIndexByte(stat, ')')
	if open < 0 || end < open {
		return Proc{}, false
	}
	p.Comm = string(stat[open+1 : end])
	f := strings.Fields(string(stat[end+1:]))
	if len(f) < 20 {
		return Proc{}, false
	}
	p.Zombie = f[0] == "Z" || f[0] == "X"
	p.PPID, _ = strconv.Atoi(f[1])
	p.SID, _ = strconv.Atoi(f[3])
	ticks, _ := strconv.ParseUint(f[19], 10, 64)
	p.startID = ticks
	p.Start = boot.Add(time.Duration(ticks) * time.Second / clockTicks)
	if statm, err := os.ReadFile(filepath.Join(dir, "statm")); err == nil {
		if sf := strings.Fields(string(statm)); len(sf) > 1 {
			pages, _ := strconv.ParseInt(sf[1], 10, 64)
			p.RSS = pages * page
		}
	}
	if cmd, err := os.ReadFile(filepath.Join(dir, "cmdline")); err == nil && len(cmd) > 0 {
		p.Args = strings.Split(strings.TrimRight(string(cmd), "\x00"), "\x00")
	}
	return p, true
}

func bootTime() (time.Time, error) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return time.Time{}, fmt.Errorf("read /proc/stat: %w", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "btime "); ok {
			s, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil {
				break
			}
			return time.Unix(s, 0), nil
		}
	}
	return time.Time{}, fmt.Errorf("/proc/stat has no btime line")
}

// same reports whether pid is still the process p (not exited, not a
// reused pid).
func same(p Proc) bool {
	boot, err := bootTime()
	if err != nil {
		return false
	}
	q, ok := readProc(p.PID, boot, int64(os.Getpagesize()))
	return ok && !q.Zombie && q.startID == p.startID
}
