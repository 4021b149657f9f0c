package repo

import (
	"os"
	"syscall"
	"time"
)

// crashAt names the point at which a test makes this process die, from
// the environment variable GIT_EDIT_TEST_CRASH (tests only; unset in use).
// "hang:<point>" makes the process stop there instead, until killed, so a
// test can act while it holds what it holds at that point.
var crashAt = os.Getenv("GIT_EDIT_TEST_CRASH")

// crashPoint kills the process with SIGKILL, as a power cut or an OOM kill
// would, when name is the point the test asked for. The crash tests use it
// to prove that every point leaves files whole and refs readable.
func crashPoint(name string) {
	switch crashAt {
	case name:
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // the signal is on its way
	case "hang:" + name:
		for { // until the test kills it (a sleep, not select{}: the runtime would call that a deadlock)
			time.Sleep(time.Hour)
		}
	}
}
