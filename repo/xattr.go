package repo

import (
	"bytes"
	"errors"
	"fmt"
	"os"
)

// An edit writes a new file and swaps it in, so what the kernel keeps with
// an inode rather than with its bytes would go with the old one: extended
// attributes, among them POSIX ACLs (system.posix_acl_access), which say
// who may read the file, user attributes (user.*) and security labels
// (security.*). The new file gets them copied before the swap.

// aclAccess is the extended attribute that holds a file's access ACL.
const aclAccess = "system.posix_acl_access"

// xattr is one extended attribute of a file.
type xattr struct {
	name  string
	value []byte
}

// readXattrs returns the extended attributes of the open file f that this
// process can read (trusted.* only as root, as the kernel lists them). A
// file system without extended attributes has none.
func readXattrs(f *os.File) ([]xattr, error) {
	size, err := xattrList(f, nil)
	for attempt := 0; err == nil && size > 0; attempt++ {
		buf := make([]byte, size)
		var n int
		n, err = xattrList(f, buf)
		if isRangeErr(err) && attempt < 3 { // grew meanwhile
			size, err = xattrList(f, nil)
			continue
		}
		if err != nil {
			break
		}
		var out []xattr
		for _, name := range bytes.Split(bytes.TrimSuffix(buf[:n], []byte{0}), []byte{0}) {
			if len(name) == 0 {
				continue
			}
			v, err := getXattr(f, string(name))
			if errors.Is(err, errNoAttr) {
				continue // removed meanwhile
			}
			if err != nil {
				return nil, fmt.Errorf("read extended attribute %s of %s: %w", name, f.Name(), err)
			}
			out = append(out, xattr{string(name), v})
		}
		return out, nil
	}
	if isNoXattrs(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list extended attributes of %s: %w", f.Name(), err)
	}
	return nil, nil
}

func getXattr(f *os.File, name string) ([]byte, error) {
	for attempt := 0; ; attempt++ {
		size, err := xattrGet(f, name, nil)
		if err != nil {
			return nil, err
		}
		buf := make([]byte, size)
		n, err := xattrGet(f, name, buf)
		if isRangeErr(err) && attempt < 3 {
			continue
		}
		if err != nil {
			return nil, err
		}
		return buf[:n], nil
	}
}

// keepXattrs gives f, the new file for rel, the extended attributes attrs
// of the file it replaces, then the permission bits perm again (setting an
// access ACL sets the bits from it; chmod then sets the ACL's mask and
// other entries from perm, as for any file with an ACL). It runs after the
// bytes are written and the owner set, which would each clear a file
// capability (security.capability). An attribute the kernel or the file
// system does not let this process set is left out (a security label set
// by policy, a capability without CAP_SETFCAP), except an access ACL:
// without it others could read or write the file, so the write is refused
// (ErrPermission), naming the file.
func keepXattrs(f *os.File, rel string, attrs []xattr, perm os.FileMode) error {
	if len(attrs) == 0 {
		return nil
	}
	for _, a := range attrs {
		err := xattrSet(f, a.name, a.value)
		if err != nil && a.name == aclAccess {
			return fmt.Errorf("%w: %s has an access ACL (%s) that git-edit cannot give the rewritten file: %w; nothing was written; run git-edit as the file's owner on a file system with ACLs", ErrPermission, rel, aclAccess, err)
		}
	}
	if err := f.Chmod(perm); err != nil {
		return fmt.Errorf("chmod %s: %w", rel, err)
	}
	return nil
}
