package ops

import "github.com/git-edit/git-edit/ops/share"

// Sharing sessions through the team's git server, for the commands: push,
// fetch and the deletion of fetched sessions, as package share does them.
type (
	PushOptions  = share.PushOptions
	PushResult   = share.PushResult
	FetchOptions = share.FetchOptions
	FetchResult  = share.FetchResult
	FetchedCopy  = share.FetchedCopy
)

var (
	// Push: see share.Push.
	Push = share.Push
	// Fetch: see share.Fetch.
	Fetch = share.Fetch
	// ReadFetched: see share.ReadFetched.
	ReadFetched = share.ReadFetched
	// PruneRemote: see share.PruneRemote.
	PruneRemote = share.PruneRemote
	// PruneCopy: see share.PruneCopy.
	PruneCopy = share.PruneCopy
)
