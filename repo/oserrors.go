package repo

// IsLinkError reports whether err is an open refusing a symbolic link at
// the last component because the caller asked not to follow one
// (OpenStateFileNoFollow): ELOOP on Linux and macOS, EMLINK on FreeBSD and
// DragonFly, EFTYPE on NetBSD (as Go's os package counts them), a reparse
// point on Windows.
func IsLinkError(err error) bool { return isLinkErr(err) }

// IsNotDirError reports whether err says that a path runs through
// something that is not a directory (a file where a directory of the path
// would be): ENOTDIR, or ERROR_DIRECTORY on Windows. Callers treat it as
// "nothing there", as git does.
func IsNotDirError(err error) bool { return isNotDirErr(err) }
