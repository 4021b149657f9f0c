package repo

import "golang.org/x/sys/unix"

// errNoAttr is the error for an extended attribute that is not there.
const errNoAttr = unix.ENODATA
