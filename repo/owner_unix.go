//go:build unix

package repo

import (
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// ownedByCurrentUser is git's is_path_owned_by_current_uid: lstat path and
// compare its owner with the effective uid. Running as root, a root-owned
// path is accepted, and otherwise SUDO_UID (when it parses) stands for the
// user: `sudo git-edit` in the person's repository works, as `sudo git`
// does. owner names the path's owner for the refusal ("uid 1000").
func ownedByCurrentUser(path string) (owner string, ok bool, err error) {
	var st unix.Stat_t
	if err := unix.Lstat(path, &st); err != nil {
		return "", false, fmt.Errorf("inspect %s: %w", path, &os.PathError{Op: "lstat", Path: path, Err: err})
	}
	owner = fmt.Sprintf("uid %d", st.Uid)
	euid := uint64(os.Geteuid())
	if euid == 0 {
		if st.Uid == 0 {
			return owner, true, nil
		}
		if s, found := os.LookupEnv("SUDO_UID"); found {
			if n, err := strconv.ParseUint(s, 10, 32); err == nil {
				euid = n
			}
		}
	}
	return owner, uint64(st.Uid) == euid, nil
}

// currentUser names the user git-edit runs as, for the refusal.
func currentUser() string { return fmt.Sprintf("uid %d", os.Geteuid()) }

// FileOwner returns the numeric owner and group of the file fi describes
// (from os.Stat, os.Lstat or a DirEntry's Info). ok is false where the
// system keeps no such numbers (Windows), or fi carries none.
func FileOwner(fi fs.FileInfo) (uid, gid int, ok bool) {
	switch st := fi.Sys().(type) {
	case *syscall.Stat_t: // what the os package puts there
		return int(st.Uid), int(st.Gid), true
	}
	return 0, 0, false
}
