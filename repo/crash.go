package repo

import (
	"os"
	"sync/atomic"
	"time"
)

// crashAt names the point at which a test makes this process die (see
// SetCrashPoint); empty in use.
var crashAt atomic.Pointer[string]

// SetCrashPoint makes the process die at the crash point name, for the
// crash tests: the command reads it from the environment variable
// GIT_EDIT_TEST_CRASH, and this package never reads the environment for
// it. "hang:<point>" makes the process stop there instead, until killed,
// so a test can act while it holds what it holds at that point. The empty
// name (the default) turns crash points off. Never set outside tests.
func SetCrashPoint(name string) { crashAt.Store(&name) }

// CrashPoint kills the process with SIGKILL, as a power cut or an OOM kill
// would, when name is the point SetCrashPoint asked for; otherwise it does
// nothing. The crash tests use it to prove that every point leaves files
// whole and refs readable. Packages above repo (the session's transaction)
// mark their own points with it.
func CrashPoint(name string) {
	p := crashAt.Load()
	if p == nil || *p == "" {
		return
	}
	switch *p {
	case name:
		killSelf()
		select {} // the kill is on its way
	case "hang:" + name:
		for { // until the test kills it (a sleep, not select{}: the runtime would call that a deadlock)
			time.Sleep(time.Hour)
		}
	}
}

// killSelf ends the process at once, running nothing more: os.Process.Kill
// is SIGKILL on unix and TerminateProcess on Windows.
func killSelf() {
	if p, err := os.FindProcess(os.Getpid()); err == nil {
		p.Kill()
	}
}
