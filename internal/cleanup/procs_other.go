//go:build !linux

package cleanup

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// List runs ps (macOS, the BSDs): pid, parent, uid, resident size, elapsed
// time and the command line. The session leader is not known there, so only
// adoption by init or a service manager marks a session as gone.
func List() ([]Proc, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "ps", "-Ao", "pid=,ppid=,uid=,rss=,etime=,stat=,comm=,args=").Output()
	if err != nil {
		return nil, fmt.Errorf("list processes with ps: %w", err)
	}
	now := time.Now()
	var procs []Proc
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 7 {
			continue
		}
		var p Proc
		p.PID, _ = strconv.Atoi(f[0])
		p.PPID, _ = strconv.Atoi(f[1])
		p.UID, _ = strconv.Atoi(f[2])
		kb, _ := strconv.ParseInt(f[3], 10, 64)
		p.RSS = kb * 1024
		age := parseEtime(f[4])
		p.Start = now.Add(-age)
		p.startID = uint64(p.Start.Unix() / 2) // etime has second precision
		p.Zombie = strings.HasPrefix(f[5], "Z")
		p.Comm = f[6]
		p.Args = f[7:]
		procs = append(procs, p)
	}
	return procs, nil
}

// parseEtime reads ps's [[dd-]hh:]mm:ss.
func parseEtime(s string) time.Duration {
	var days int
	if d, rest, ok := strings.Cut(s, "-"); ok {
		days, _ = strconv.Atoi(d)
		s = rest
	}
	parts := strings.Split(s, ":")
	var secs int
	for _, p := range parts {
		n, _ := strconv.Atoi(p)
		secs = secs*60 + n
	}
	return time.Duration(days)*24*time.Hour + time.Duration(secs)*time.Second
}

func same(p Proc) bool {
	procs, err := List()
	if err != nil {
		return false
	}
	for _, q := range procs {
		if q.PID == p.PID {
			return !q.Zombie && (q.startID == p.startID || q.startID+1 == p.startID || q.startID == p.startID+1)
		}
	}
	return false
}
