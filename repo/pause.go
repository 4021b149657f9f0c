package repo

import "sync/atomic"

// pauseHook is called at named points of an operation where a race could
// strike (see pause). It is nil outside tests.
var pauseHook atomic.Pointer[func(point, path string)]

// SetPauseHook makes git-edit call hook at each pause point: "locked"
// (the edit lock is taken, nothing read yet), "before-write" (files read
// and planned, objects stored, nothing written), "before-rename" (a file's
// new bytes are in a temporary file, the check of the old bytes comes
// next), "objects-written" (the operation's objects are stored, the ref
// not moved yet). path names the file concerned, or is empty. Tests use it
// to make races deterministic: the hook runs the racing action, then
// returns. It returns a function that removes the hook. Never set outside
// tests.
func SetPauseHook(hook func(point, path string)) (restore func()) {
	pauseHook.Store(&hook)
	return func() { pauseHook.Store(nil) }
}

// pause runs the test hook, if any, at a pause point.
func pause(point, path string) {
	if h := pauseHook.Load(); h != nil {
		(*h)(point, path)
	}
}
