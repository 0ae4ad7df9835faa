//go:build linux

package agent

import (
	"os"
	"strconv"
	"strings"
)

// taskGroup lists the live processes of process group pgid that carry
// WARDEN_TASK_ID=id: what a headless agent left behind when the daemon
// died with kill -9. Its leader died with the daemon (Pdeathsig), but
// the tools it started (a shell, a test run, a server) did not; the group
// id outlives the leader while any of them lives, and the environment
// check keeps a group of another program that got the number since out.
func taskGroup(pgid int, id string) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp …: comm may hold spaces and
		// parentheses, so the fields start after the last ')'.
		i := strings.LastIndexByte(string(b), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b)[i+1:])
		if len(f) < 3 || f[2] != strconv.Itoa(pgid) {
			continue
		}
		if isTaskProcess(pid, id) {
			out = append(out, pid)
		}
	}
	return out
}
