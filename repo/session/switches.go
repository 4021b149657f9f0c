package session

import "github.com/git-edit/git-edit/repo"

// The command hands the library the switches that tests and the benchmark
// set in its environment; no library package reads the environment for
// them. These pass them to the plumbing, so that the command talks to the
// session layer only.

// SetCrashPoint makes the process die at the named crash point of an
// operation, whether the point is the transaction's ("objects-written",
// "files-written") or the plumbing's ("temp-written", "ref-locked",
// "before-ref-rename"); "hang:<point>" stops it there instead. See
// repo.SetCrashPoint. Tests only.
func SetCrashPoint(name string) { repo.SetCrashPoint(name) }

// UseGoGitReader makes repositories opened from now on read objects through
// go-git's reader instead of packidx, to compare the two (see
// repo.UseGoGitReader). Benchmarks only.
func UseGoGitReader(on bool) { repo.UseGoGitReader(on) }
