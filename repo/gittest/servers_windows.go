//go:build windows

package gittest

import "os/exec"

// newGroup does nothing on Windows: killGroup kills the process alone.
func newGroup(cmd *exec.Cmd) {}

// killGroup kills cmd; the caller waits for it.
func killGroup(cmd *exec.Cmd) { cmd.Process.Kill() }
