//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package repo

import "golang.org/x/sys/unix"

// errNoAttr is the error for an extended attribute that is not there
// (ENOATTR here; Linux says ENODATA).
const errNoAttr = unix.ENOATTR
