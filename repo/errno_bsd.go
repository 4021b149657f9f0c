//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package repo

import "golang.org/x/sys/unix"

// errNoAttr is the error for an extended attribute that is not there
// (ENOATTR here; Linux says ENODATA).
const errNoAttr = unix.ENOATTR

// linkErrnos are the errors of an open with O_NOFOLLOW that met a symlink:
// ELOOP, and EMLINK on FreeBSD and DragonFly, EFTYPE on NetBSD (as Go's os
// package maps them).
var linkErrnos = []error{unix.ELOOP, unix.EMLINK, unix.EFTYPE}
