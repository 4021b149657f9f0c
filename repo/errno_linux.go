package repo

import "golang.org/x/sys/unix"

// errNoAttr is the error for an extended attribute that is not there.
const errNoAttr = unix.ENODATA

// linkErrnos are the errors of an open with O_NOFOLLOW that met a symlink.
var linkErrnos = []error{unix.ELOOP}
