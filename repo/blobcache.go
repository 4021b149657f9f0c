package repo

import (
	"sync"
	"sync/atomic"

	"os"

	"github.com/go-git/go-git/v5/plumbing"
)

// Hash once: a process (a warm MCP server above all) remembers the blob id
// of each worktree file it read or wrote, keyed by what stat says of the
// file (device, inode, size, mtime, ctime), and does not hash the file
// again while stat says the same. This is git's index trick, with git's
// care for racy timestamps: a file changed in the same clock tick as the
// moment it was stat'ed keeps its mtime and ctime, so a record is made only
// when the file's timestamps are strictly older than a clock reading taken
// before the stat (before the swap, for a file git-edit wrote): any change
// after that reading gets a later timestamp, and so misses the record.
//
// The record only ever saves a SHA-1 pass over bytes already read: it
// never stands in for the content check before a swap, nor for the proof
// after it, which compare bytes. It is trusted only on local file systems
// whose timestamps come from this kernel's clock (ext2/3/4, XFS, btrfs,
// tmpfs, overlayfs, F2FS); on others (NFS, FUSE, SMB…) a server's clock may
// lag this one, and files are always hashed.

// stamp is a file as stat describes it.
type stamp struct {
	dev, ino     uint64
	size         int64
	mtime, ctime fsTime
}

func stampOf(fi fileInfo) stamp {
	return stamp{dev: fi.dev, ino: fi.ino, size: fi.size, mtime: fi.mtime, ctime: fi.ctime}
}

// maxBlobRecords bounds the records kept; past it, they are dropped all at
// once (a re-hash is the only cost).
const maxBlobRecords = 4096

var blobRecords struct {
	sync.Mutex
	blobs map[stamp]plumbing.Hash
	local map[uint64]bool // device → timestamps from this kernel's clock
}

// diskHashes counts the worktree files hashed by readWorkFile (tests).
var diskHashes atomic.Int64

// clockNow (fsys_<os>.go) reads the clock file timestamps are taken
// from, or a finer reading, never an earlier one. Tests replace it.

// olderThan reports whether timestamp t lies in an earlier tick of the
// file system's clock than since. Timestamps without a sub-second part may
// come from a file system that keeps whole seconds (ext4 with small
// inodes): those compare by the second, as git does without nanoseconds.
func olderThan(t, since fsTime) bool {
	if t.Nsec == 0 {
		return t.Sec < since.Sec
	}
	return t.Sec < since.Sec || t.Sec == since.Sec && t.Nsec < since.Nsec
}

// recordedBlob returns the blob recorded for a file that stat describes
// as fi.
func recordedBlob(fi fileInfo) (plumbing.Hash, bool) {
	blobRecords.Lock()
	defer blobRecords.Unlock()
	h, ok := blobRecords.blobs[stampOf(fi)]
	return h, ok
}

// recordBlob remembers blob for the file stat describes as fi, when its
// mtime (and ctime, if ctimeToo) is older than since, a clock reading
// taken before the stat, and f (the file or its directory) is on a local
// file system. A write record leaves the ctime out: the swap changed it
// after since, and any later change of the bytes changes the mtime.
func recordBlob(f *os.File, fi fileInfo, blob plumbing.Hash, since fsTime, ctimeToo bool) {
	if blob.IsZero() || !olderThan(fi.mtime, since) || ctimeToo && !olderThan(fi.ctime, since) {
		return
	}
	blobRecords.Lock()
	defer blobRecords.Unlock()
	local, known := blobRecords.local[fi.dev]
	if !known {
		local = localClockFS(f)
		if blobRecords.local == nil {
			blobRecords.local = map[uint64]bool{}
		}
		blobRecords.local[fi.dev] = local
	}
	if !local {
		return
	}
	if blobRecords.blobs == nil || len(blobRecords.blobs) >= maxBlobRecords {
		blobRecords.blobs = map[stamp]plumbing.Hash{}
	}
	blobRecords.blobs[stampOf(fi)] = blob
}
