package repo

import "sync/atomic"

// pauseHook is called at named points of an operation where a race could
// strike (see Pause). It is nil outside tests.
var pauseHook atomic.Pointer[func(point, path string)]

// SetPauseHook makes git-edit call hook at each pause point of an
// operation: "locked" once (the edit lock is taken, nothing read yet), then
// in each attempt "objects-written" (files read and planned, the objects
// stored in their kept pack, no file written), per file written or removed
// "before-rename" (for a write, its new bytes are in a temporary file; the
// check that the file still holds what was read comes next), "checked"
// (checked; the lease that holds off writers is taken next), then
// "open-elsewhere" each time the lease cannot be had because another
// program has the file open for writing (git-edit waits for it to close
// the file) and "leased" (the lease is held and the file checked again;
// the swap or removal comes next; a program opening the file for writing
// now waits until git-edit is done with it, and breaks the lease), and
// "files-written" (the ref moves next). The swap without exchange
// (swapAside) pauses at "aside" (the file is moved aside; the name is
// absent until the new file is renamed in next) and "swapped-in" (the new
// file is at the name; the file moved aside is proven next). A rename
// without replacing done by link and unlink pauses at "linked" (both names
// are the file; the old name is unlinked next).
// Putting files back after a failure has no pause points.
// After an operation whose pack was released, the roll-up of git-edit's
// own packs (ConsolidatePacks) pauses at "consolidate-chosen" (the packs to
// roll up are chosen, nothing written) and "consolidate-written" (the new
// pack and its index are in place, no old pack deleted yet); these are
// also crash points, with "consolidate-deleting" after each old pack
// deleted.
// A push of sessions (package share) pauses at "share-checked" (what it
// sends is checked; git push runs next).
// path names the file concerned, or is empty. Tests use it to make races
// deterministic: the hook runs the racing action, then returns. It returns
// a function that removes the hook. Never set outside tests.
//
// The file points are this package's; "locked", "objects-written" and
// "files-written" are the session transaction's (package session), which
// marks them with Pause, so that one hook serves the tests of both.
func SetPauseHook(hook func(point, path string)) (restore func()) {
	pauseHook.Store(&hook)
	return func() { pauseHook.Store(nil) }
}

// Pause runs the test hook, if any, at the pause point named point (path:
// the file concerned, or ""). Without a hook it does nothing.
func Pause(point, path string) {
	if h := pauseHook.Load(); h != nil {
		(*h)(point, path)
	}
}
