//go:build windows

package repo

import (
	"fmt"
	"io/fs"
	"sync"

	"golang.org/x/sys/windows"
)

// ownedByCurrentUser is git for Windows' is_path_owned_by_current_sid
// (compat/mingw.c): the owner SID of path must be the SID of the user the
// process runs as; a path owned by the Administrators group is accepted
// when that user is a member of it (an elevated administrator's files are
// owned by the group). A path whose owner cannot be read (FAT and exFAT
// volumes record none, and report "Everyone") is not owned: git refuses it
// too, and safe.directory allows it. owner names the owner for the
// refusal (the SID, and the account when it resolves).
func ownedByCurrentUser(path string) (owner string, ok bool, err error) {
	sd, err := windows.GetNamedSecurityInfo(path, windows.SE_FILE_OBJECT, windows.OWNER_SECURITY_INFORMATION)
	if err != nil {
		return "", false, fmt.Errorf("inspect the owner of %s: %w", path, err)
	}
	sid, _, err := sd.Owner()
	if err != nil || sid == nil || !sid.IsValid() {
		return "no recorded owner", false, nil
	}
	owner = describeSID(sid)
	me, err := currentSID()
	if err != nil {
		return owner, false, err
	}
	if sid.Equals(me) {
		return owner, true, nil
	}
	if sid.IsWellKnown(windows.WinBuiltinAdministratorsSid) {
		if member, err := windows.Token(0).IsMember(sid); err == nil && member {
			return owner, true, nil
		}
	}
	return owner, false, nil
}

var currentSIDOnce = sync.OnceValues(func() (*windows.SID, error) {
	tu, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return nil, fmt.Errorf("read the current user's SID: %w", err)
	}
	return tu.User.Sid.Copy()
})

// currentSID is the SID of the user the process runs as.
func currentSID() (*windows.SID, error) { return currentSIDOnce() }

// currentUser names the user git-edit runs as, for the refusal.
func currentUser() string {
	sid, err := currentSID()
	if err != nil {
		return "an unknown user"
	}
	return describeSID(sid)
}

// describeSID is "DOMAIN\account (S-1-5-...)", or the SID alone.
func describeSID(sid *windows.SID) string {
	if account, domain, _, err := sid.LookupAccount(""); err == nil {
		return fmt.Sprintf(`%s\%s (%s)`, domain, account, sid.String())
	}
	return sid.String()
}

// FileOwner returns the numeric owner and group of the file fi describes.
// Windows keeps no numeric owners (files have SIDs), so ok is false.
func FileOwner(fi fs.FileInfo) (uid, gid int, ok bool) { return 0, 0, false }
