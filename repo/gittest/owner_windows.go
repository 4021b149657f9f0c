//go:build windows

package gittest

import "io/fs"

// fileOwner is repo.FileOwner: Windows keeps no numeric owners, so a
// snapshot leaves them out.
func fileOwner(fi fs.FileInfo) (uid, gid int, ok bool) { return 0, 0, false }
