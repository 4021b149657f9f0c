//go:build unix

package gittest

import (
	"os/exec"
	"syscall"
)

// newGroup makes cmd the leader of a new process group, so that killGroup
// ends every process it starts too (git daemon forks one per connection).
func newGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills cmd's process group; the caller waits for cmd.
func killGroup(cmd *exec.Cmd) {
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		cmd.Process.Kill()
	}
}
