package agent

import (
	"bytes"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"syscall"
)

// agentProcAttr: a process group of its own (Stop ends the agent's
// children too) that the kernel kills when the daemon thread that started
// it goes away (startLocked keeps that thread alive).
func agentProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// startLocked starts cmd from a thread locked for the call, as Pdeathsig
// is tied to the starting thread and Go may end an unlocked idle thread.
// The thread stays in the runtime's pool after unlocking; Go only ends
// threads that exit locked.
func startLocked(cmd *exec.Cmd) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return cmd.Start()
}

// isTaskProcess reports whether pid is alive and carries WARDEN_TASK_ID=id
// in its environment (so a recycled pid is never killed).
func isTaskProcess(pid int, id string) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	return bytes.Contains(append([]byte{0}, b...), []byte("\x00"+EnvTaskID+"="+id+"\x00"))
}
