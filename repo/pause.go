package repo

import "sync/atomic"

// pauseHook is called at named points of an operation where a race could
// strike (see pause). It is nil outside tests.
var pauseHook atomic.Pointer[func(point, path string)]

// SetPauseHook makes git-edit call hook at each pause point of an
// operation: "locked" once (the edit lock is taken, nothing read yet), then
// in each attempt "objects-written" (files read and planned, the objects
// stored in their kept pack, no file written), per file written or removed
// "before-rename" (for a write, its new bytes are in a temporary file; the
// check that the file still holds what was read comes next) and "checked"
// (checked; the swap or removal comes next), and "files-written" (the ref
// moves next). Putting files back after a failure has no pause points.
// path names the file concerned, or is empty. Tests use it to make races
// deterministic: the hook runs the racing action, then returns. It returns
// a function that removes the hook. Never set outside tests.
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
